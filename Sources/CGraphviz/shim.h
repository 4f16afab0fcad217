// Thin wrappers over libgvc for calls that Swift cannot make cleanly or that changed
// signature between Graphviz releases. Every call must be serialized by the caller:
// libgvc is not thread-safe.

#ifndef CGRAPHVIZ_SHIM_H
#define CGRAPHVIZ_SHIM_H

#include <stddef.h>
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

#endif
