-- What changed between two sets of transition summaries, beyond chance: the comparison of
-- `reactor-trace compare` (docs/fleet.md, "What changed between two versions") as DuckDB SQL,
-- for fleets too large for one machine's memory.
--
-- Run after fleet/merge.sql, with two views in the shape of summary_lines(): before_lines and
-- after_lines (fleet/compare_duckdb.py makes them from two sets of files, or from one set split
-- by metadata), and a one-row table compare_settings(alpha DOUBLE). It creates the table
-- compare_results: one row per test and per untested one-sided transition, with its counts,
-- p-value, adjusted p-value (q) and whether it is significant.
--
-- The rules are compare's: per reactor type on both sides, each transition's share of those
-- leaving its state is tested when both sides leave the state (added, removed or shift), and
-- for a transition seen on both sides, the share of each outcome kind that happened and did not
-- always happen (only the rarer one of exactly two); Fisher's exact test when a margin is at most
-- 1,000 or an expected cell is below 5, else the pooled two-proportion z-test; all tests are one
-- family, trimmed as Tarone proposed and corrected by Benjamini-Hochberg at alpha. A transition
-- leaving a state the other side never leaves is untested: significant when a significant added
-- (removed) transition leads into its state, however indirectly.

-- erfc(x) for x >= 0, within a relative 1.2e-7 (Numerical Recipes' erfcc).
CREATE OR REPLACE MACRO compare_erfc(x) AS (
  WITH t AS (SELECT 1.0 / (1.0 + 0.5 * x) AS t)
  SELECT t * exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
    + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
    + t * (-0.82215223 + t * 0.17087277))))))))) FROM t);

CREATE OR REPLACE MACRO compare_lchoose(n, k) AS
  lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);

CREATE OR REPLACE TEMP TABLE compare_counts AS
  WITH sides AS (
    SELECT 'before' AS side, * FROM before_lines UNION ALL SELECT 'after' AS side, * FROM after_lines)
  SELECT side, reactor, any_value(abstraction) AS abstraction, "from", action, mutation, "to",
    sum(count)::BIGINT AS n, sum(outcomes.failed)::BIGINT AS failed,
    sum(outcomes.cancelled)::BIGINT AS cancelled, sum(outcomes.running)::BIGINT AS running,
    sum(outcomes.finished)::BIGINT AS finished, sum(outcomes.sync)::BIGINT AS sync
  FROM sides GROUP BY side, reactor, "from", action, mutation, "to";

CREATE OR REPLACE TEMP TABLE compare_transitions AS
  WITH both_sides AS (
    SELECT reactor FROM compare_counts GROUP BY reactor HAVING count(DISTINCT side) = 2),
  departures AS (
    SELECT side, reactor, "from", sum(n)::BIGINT AS total FROM compare_counts GROUP BY ALL)
  SELECT t.reactor, t."from", t.action, t.mutation, t."to",
    coalesce(b.n, 0) AS before_n, coalesce(a.n, 0) AS after_n,
    coalesce(db.total, 0) AS before_total, coalesce(da.total, 0) AS after_total,
    b.failed AS b_failed, b.cancelled AS b_cancelled, b.running AS b_running,
    b.finished AS b_finished, b.sync AS b_sync,
    a.failed AS a_failed, a.cancelled AS a_cancelled, a.running AS a_running,
    a.finished AS a_finished, a.sync AS a_sync,
    (SELECT count(*) FROM departures d WHERE d.side = 'before' AND d.reactor = t.reactor
       AND d."from" = t."to") > 0 AS target_left_before,
    (SELECT count(*) FROM departures d WHERE d.side = 'after' AND d.reactor = t.reactor
       AND d."from" = t."to") > 0 AS target_left_after
  FROM (SELECT DISTINCT reactor, "from", action, mutation, "to" FROM compare_counts
        WHERE reactor IN (SELECT reactor FROM both_sides)) t
  LEFT JOIN compare_counts b ON b.side = 'before' AND b.reactor = t.reactor
    AND b."from" = t."from" AND b.action = t.action AND b.mutation = t.mutation AND b."to" = t."to"
  LEFT JOIN compare_counts a ON a.side = 'after' AND a.reactor = t.reactor
    AND a."from" = t."from" AND a.action = t.action AND a.mutation = t.mutation AND a."to" = t."to"
  LEFT JOIN departures db ON db.side = 'before' AND db.reactor = t.reactor AND db."from" = t."from"
  LEFT JOIN departures da ON da.side = 'after' AND da.reactor = t.reactor AND da."from" = t."from";

-- Every test: (a of n1) before against (c of n2) after.
CREATE OR REPLACE TEMP TABLE compare_tests AS
  WITH shares AS (
    SELECT reactor, "from", action, mutation, "to", NULL::VARCHAR AS outcome,
      CASE WHEN before_n = 0 THEN 'added' WHEN after_n = 0 THEN 'removed' ELSE 'shift' END AS kind,
      before_n AS a, before_total AS n1, after_n AS c, after_total AS n2
    FROM compare_transitions WHERE before_total > 0 AND after_total > 0),
  kinds AS (
    SELECT t.*, k.outcome, k.position,
      [b_failed, b_cancelled, b_running, b_finished, b_sync][k.position] AS o_before,
      [a_failed, a_cancelled, a_running, a_finished, a_sync][k.position] AS o_after
    FROM compare_transitions t,
      (VALUES ('failed', 1), ('cancelled', 2), ('running', 3), ('finished', 4), ('sync', 5))
        k(outcome, position)
    WHERE before_n > 0 AND after_n > 0),
  varying AS (
    SELECT *, count(*) OVER w AS kinds_count,
      row_number() OVER (PARTITION BY reactor, "from", action, mutation, "to"
        ORDER BY o_before + o_after, position) AS rarity
    FROM kinds
    WHERE o_before + o_after > 0 AND o_before + o_after < before_n + after_n
    WINDOW w AS (PARTITION BY reactor, "from", action, mutation, "to")),
  outcomes AS (
    SELECT reactor, "from", action, mutation, "to", outcome, 'outcome' AS kind,
      o_before AS a, before_n AS n1, o_after AS c, after_n AS n2
    FROM varying WHERE kinds_count <> 2 OR rarity = 1)
  SELECT row_number() OVER () AS id, *,
    a + c AS k, n1 + n2 AS total,
    greatest(0, a + c - n2) AS lo, least(n1, a + c) AS hi,
    (least(n1, n2) <= 1000 OR least(a + c, n1 + n2 - a - c) <= 1000
      OR least(n1, n2)::DOUBLE * least(a + c, n1 + n2 - a - c) / (n1 + n2) < 5) AS exact
  FROM (SELECT * FROM shares UNION ALL SELECT * FROM outcomes);

CREATE OR REPLACE TEMP TABLE compare_pvalues AS
  WITH exact_tests AS (SELECT * FROM compare_tests WHERE exact AND lo < hi),
  support AS (
    SELECT id, x, a, lo, hi,
      compare_lchoose(n1, x) + compare_lchoose(n2, k - x) - compare_lchoose(total, k) AS lp
    FROM exact_tests, LATERAL (SELECT unnest(range(lo, hi + 1)) AS x)),
  marked AS (
    SELECT *, max(lp) FILTER (WHERE x = a) OVER (PARTITION BY id) AS lp_obs,
      max(lp) FILTER (WHERE x = lo) OVER (PARTITION BY id) AS lp_lo,
      max(lp) FILTER (WHERE x = hi) OVER (PARTITION BY id) AS lp_hi
    FROM support),
  fisher AS (
    SELECT id,
      least(1, sum(exp(lp)) FILTER (WHERE lp <= lp_obs + 1e-7)) AS p,
      least(1, sum(exp(lp)) FILTER (WHERE lp <= lp_lo + 1e-7),
        sum(exp(lp)) FILTER (WHERE lp <= lp_hi + 1e-7)) AS min_p
    FROM marked GROUP BY id),
  normal AS (
    SELECT id,
      CASE WHEN se = 0 THEN 1 ELSE least(1, compare_erfc(abs((a / n1 - c / n2) / se) / sqrt(2))) END AS p,
      CASE WHEN se = 0 THEN 1 ELSE least(1,
        compare_erfc(abs((lo / n1 - (k - lo) / n2) / se) / sqrt(2)),
        compare_erfc(abs((hi / n1 - (k - hi) / n2) / se) / sqrt(2))) END AS min_p
    FROM (SELECT *, sqrt((k / total) * (1 - k / total) * (1.0 / n1 + 1.0 / n2)) AS se
          FROM (SELECT id, a::DOUBLE AS a, c::DOUBLE AS c, n1::DOUBLE AS n1, n2::DOUBLE AS n2,
                  k::DOUBLE AS k, total::DOUBLE AS total, lo::DOUBLE AS lo, hi::DOUBLE AS hi
                FROM compare_tests WHERE NOT exact AND lo < hi)))
  SELECT t.*, coalesce(f.p, z.p, 1.0) AS p, coalesce(f.min_p, z.min_p, 1.0) AS min_p
  FROM compare_tests t LEFT JOIN fisher f USING (id) LEFT JOIN normal z USING (id);

-- Tarone's trim, then Benjamini-Hochberg over the tests kept.
CREATE OR REPLACE TEMP TABLE compare_adjusted AS
  WITH family AS (
    SELECT coalesce(min(k), (SELECT count(*) FROM compare_pvalues)) AS size
    FROM range(1, (SELECT count(*) FROM compare_pvalues) + 1) r(k)
    WHERE (SELECT count(*) FROM compare_pvalues
           WHERE min_p <= (SELECT alpha FROM compare_settings) / r.k) <= r.k),
  kept AS (
    SELECT *, row_number() OVER (ORDER BY p, id) AS rank, count(*) OVER () AS kept_count
    FROM compare_pvalues
    WHERE min_p <= (SELECT alpha FROM compare_settings) / (SELECT size FROM family)),
  adjusted AS (
    SELECT id, least(1, min(p * kept_count / rank) OVER (ORDER BY rank DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) AS q
    FROM kept)
  SELECT p.*, q, coalesce(q <= (SELECT alpha FROM compare_settings), false) AS significant
  FROM compare_pvalues p LEFT JOIN adjusted USING (id);

-- Untested one-sided transitions: significant when a significant added (removed) transition
-- leads, however indirectly, into the state they leave.
CREATE OR REPLACE TEMP TABLE compare_results AS
  WITH RECURSIVE untested AS (
    SELECT reactor, "from", action, mutation, "to",
      CASE WHEN before_n = 0 THEN 'added' ELSE 'removed' END AS kind,
      before_n, after_n, before_total, after_total,
      CASE WHEN before_n = 0 THEN NOT target_left_before ELSE NOT target_left_after END AS leads_on
    FROM compare_transitions WHERE before_total = 0 OR after_total = 0),
  entered(reactor, state, kind) AS (
    SELECT p.reactor, p."to", p.kind FROM compare_adjusted p
    JOIN compare_transitions t USING (reactor, "from", action, mutation, "to")
    WHERE p.significant AND p.kind IN ('added', 'removed')
      AND CASE WHEN p.kind = 'added' THEN NOT t.target_left_before ELSE NOT t.target_left_after END
    UNION
    SELECT u.reactor, u."to", u.kind FROM untested u
    JOIN entered e ON e.reactor = u.reactor AND e.state = u."from" AND e.kind = u.kind
    WHERE u.leads_on)
  SELECT reactor, kind, "from", action, mutation, "to", outcome,
    a AS before_count, n1 AS before_total, c AS after_count, n2 AS after_total,
    p, min_p, q, significant, exact
  FROM compare_adjusted
  UNION ALL
  SELECT u.reactor, u.kind, u."from", u.action, u.mutation, u."to", NULL,
    u.before_n, u.before_total, u.after_n, u.after_total, NULL, NULL, NULL,
    EXISTS (SELECT 1 FROM entered e WHERE e.reactor = u.reactor AND e.state = u."from"
            AND e.kind = u.kind), false
  FROM untested u;
