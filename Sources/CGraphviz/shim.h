// Thin wrappers over libgvc for calls that Swift cannot make cleanly or that changed
// signature between Graphviz releases. Every call must be serialized by the caller:
// libgvc is not thread-safe.

#ifndef CGRAPHVIZ_SHIM_H
#define CGRAPHVIZ_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // dladdr and RTLD_DEFAULT in glibc
#endif
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <graphviz/graphviz_version.h>
#include <graphviz/gvc.h>

// Parses the first graph in `dot`; returns NULL (after reporting through agerr) on a
// syntax error, or NULL without a message when `dot` holds no graph.
//
// The lexer is global: agmemread leaves the rest of the line that ends the graph in its
// buffer, where the next agmemread would read it first (another graph, or junk that would
// fail the next, valid, input), and it never resets its line counter. So this drains the
// buffer by parsing an empty input until nothing is left (junk is reported as this input's
// syntax error) and resets the line counter before parsing. Older releases take `char *`.
static inline Agraph_t *cgraphviz_read(const char *dot) {
  agreadline(1);
  Agraph_t *graph = agmemread((char *)dot);
  Agraph_t *rest;
  while ((rest = agmemread((char *)"")) != NULL) {
    agclose(rest);
  }
  return graph;
}

// Lays out `graph` with the named engine; returns 0 on success, -1 otherwise.
static inline int cgraphviz_layout(GVC_t *context, Agraph_t *graph, const char *engine) {
  return gvLayout(context, graph, (char *)engine);
}

// Renders a laid-out `graph` into a buffer that the caller frees with
// `gvFreeRenderData`. The length is `unsigned int *` before Graphviz 13 and `size_t *`
// from 13 on; Swift always sees `size_t`.
static inline int cgraphviz_render_data(
  GVC_t *context, Agraph_t *graph, const char *format, char **result, size_t *length
) {
#if defined(GRAPHVIZ_VERSION_MAJOR) && GRAPHVIZ_VERSION_MAJOR >= 13
  return gvRenderData(context, graph, format, result, length);
#else
  unsigned int count = 0;
  int status = gvRenderData(context, graph, (char *)format, result, &count);
  *length = (size_t)count;
  return status;
#endif
}

// Creates a context with only the plugins that need no text shaping: the core renderers
// (SVG and Graphviz's text formats) and the dot and neato layout families (nop among them).
// Without a text layout plugin Graphviz measures labels with its built-in metrics for
// Times, Helvetica/Arial and Courier instead of shaping them with Pango, which is several
// times faster.
//
// The plugins are loaded from the `graphviz` directory next to libgvc, where Graphviz
// installs them (`libgvplugin_core.so.6`, or `libgvplugin_core.6.dylib` on macOS). Returns
// NULL when one of them cannot be loaded; the caller then keeps using a full context.
static inline GVC_t *cgraphviz_context_without_text_layout(void) {
  static const char *const names[] = {"core", "dot_layout", "neato_layout"};
  static const char *const symbols[] = {
    "gvplugin_core_LTX_library", "gvplugin_dot_layout_LTX_library",
    "gvplugin_neato_layout_LTX_library",
  };
  static const char *const patterns[] = {
    "%.*s/graphviz/libgvplugin_%s.so.6", "%.*s/graphviz/libgvplugin_%s.6.dylib",
  };
  // The context keeps a pointer to this list, so it must outlive the context.
  static lt_symlist_t builtins[4];

  Dl_info info;
  void *anchor = dlsym(RTLD_DEFAULT, "gvContext");
  if (anchor == NULL || dladdr(anchor, &info) == 0 || info.dli_fname == NULL) return NULL;
  const char *slash = strrchr(info.dli_fname, '/');
  if (slash == NULL) return NULL;
  int directoryLength = (int)(slash - info.dli_fname);

  for (int index = 0; index < 3; index++) {
    void *library = NULL;
    for (int pattern = 0; pattern < 2 && library == NULL; pattern++) {
      char path[4096];
      int length = snprintf(
        path, sizeof path, patterns[pattern], directoryLength, info.dli_fname, names[index]);
      if (length > 0 && (size_t)length < sizeof path) {
        library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      }
    }
    void *address = library == NULL ? NULL : dlsym(library, symbols[index]);
    if (address == NULL) return NULL;
    builtins[index].name = symbols[index];
    builtins[index].address = address;
  }
  builtins[3].name = NULL;
  builtins[3].address = NULL;
  return gvContextPlugins(builtins, 0);
}

#endif
