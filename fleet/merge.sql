-- Merge reactor-trace transition summaries (docs/fleet.md) with DuckDB.
--
-- Lines with equal keys (reactor, schema, appVersion, metadata, abstraction, timeBase, from,
-- action, mutation, to) add up: count, traces and each outcome are summed, first is the
-- earliest and last the latest. The result has the summaries' own shape, so merged files
-- merge again. Inputs: any number of files or globs, JSON Lines, gzipped or not.
--
--   duckdb -c ".read fleet/merge.sql" \
--     -c "COPY (FROM merged_summaries(['fleet/*.summary.jsonl.gz'])) TO 'merged.jsonl' (FORMAT json)"
--
-- or from Python: duckdb.sql(open('fleet/merge.sql').read()), then the same COPY.

-- A fleet is many small files. read_json with the summary's fifteen typed columns spent about
-- 0.65 ms of CPU per file here, nearly all of it setting up each file; reading each line as one
-- JSON value and typing it with json_transform_strict spends about 0.12 ms per file
-- (docs/performance.md, "Fleets at 100,000 summaries: the merge redesigned"). The strict
-- transform refuses a line that lacks a member or holds one of the wrong type, quoting it.
CREATE OR REPLACE MACRO summary_lines(files) AS TABLE
  SELECT unnest(json_transform_strict(json, '{
      "reactor": "VARCHAR", "schema": "VARCHAR", "appVersion": "VARCHAR",
      "metadata": "MAP(VARCHAR, VARCHAR)", "abstraction": "VARCHAR", "timeBase": "VARCHAR",
      "from": "VARCHAR", "action": "VARCHAR", "mutation": "VARCHAR", "to": "VARCHAR",
      "count": "BIGINT", "traces": "BIGINT", "first": "BIGINT", "last": "BIGINT",
      "outcomes": {"sync": "BIGINT", "finished": "BIGINT", "cancelled": "BIGINT",
                   "failed": "BIGINT", "running": "BIGINT"}
    }'))
  FROM read_ndjson_objects(files, compression = 'auto_detect');

CREATE OR REPLACE MACRO merged_summaries(files) AS TABLE
  SELECT
    reactor, schema, appVersion,
    -- Maps compare in member order: sort the members so that equal metadata groups.
    map_from_entries(list_sort(map_entries(metadata))) AS metadata,
    abstraction, timeBase, "from", action, mutation, "to",
    sum(count)::BIGINT AS count,
    sum(traces)::BIGINT AS traces,
    min(first) AS first,
    max(last) AS last,
    {
      'sync': sum(outcomes.sync)::BIGINT,
      'finished': sum(outcomes.finished)::BIGINT,
      'cancelled': sum(outcomes.cancelled)::BIGINT,
      'failed': sum(outcomes.failed)::BIGINT,
      'running': sum(outcomes.running)::BIGINT
    } AS outcomes
  FROM summary_lines(files)
  GROUP BY reactor, schema, appVersion, map_from_entries(list_sort(map_entries(metadata))),
    abstraction, timeBase, "from", action, mutation, "to"
  ORDER BY reactor, schema, appVersion, abstraction, timeBase, "from", action, mutation, "to",
    metadata;
