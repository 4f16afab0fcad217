#!/usr/bin/env python3
"""Merge transition summaries with PySpark: the same rule as fleet/merge.sql.

Local mode here; the same job runs unchanged on a cluster with spark-submit:

    python3 fleet/merge_spark.py 'summaries/*.summary.jsonl.gz' --json merged-json/ \
        --parquet merged-parquet/
    spark-submit fleet/merge_spark.py 's3a://bucket/summaries/*/*.gz' --json s3a://bucket/merged/

Lines with equal keys add up: count, traces and each outcome are summed, first is the
earliest and last the latest. --json writes the summaries' own shape (JSON Lines part files,
gzipped with --gzip); --parquet writes the same columns as Parquet.
"""
import argparse
import sys

from pyspark.sql import SparkSession, functions as F, types as T

OUTCOMES = ["sync", "finished", "cancelled", "failed", "running"]
KEY = ["reactor", "schema", "appVersion", "abstraction", "timeBase", "from", "action",
       "mutation", "to"]

SCHEMA = T.StructType(
    [T.StructField(name, T.StringType()) for name in
     ["reactor", "schema", "appVersion"]]
    + [T.StructField("metadata", T.MapType(T.StringType(), T.StringType()))]
    + [T.StructField(name, T.StringType()) for name in
       ["abstraction", "timeBase", "from", "action", "mutation", "to"]]
    + [T.StructField(name, T.LongType()) for name in ["count", "traces", "first", "last"]]
    + [T.StructField("outcomes", T.StructType(
        [T.StructField(name, T.LongType()) for name in OUTCOMES]))])

COLUMNS = ["reactor", "schema", "appVersion", "metadata", "abstraction", "timeBase", "from",
           "action", "mutation", "to", "count", "traces", "first", "last", "outcomes"]


def session(master="local[2]"):
    """A Spark session for the job; on a cluster, spark-submit's settings win."""
    return (SparkSession.builder.appName("reactor-trace summaries merge")
            .master(master)
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            # List many files on the driver instead of in a job of one task per file.
            .config("spark.sql.sources.parallelPartitionDiscovery.threshold", "1000000")
            # Small files: pack many into one read task.
            .config("spark.sql.files.openCostInBytes", "8192")
            .getOrCreate())


def merged(spark, inputs):
    """The merged summaries of the files or globs `inputs`, as a DataFrame in summary shape."""
    lines = spark.read.schema(SCHEMA).option("mode", "FAILFAST").json(list(inputs))
    # Maps cannot be grouped: group by their members, sorted, and rebuild the map.
    lines = lines.withColumn(
        "metadataEntries",
        F.array_sort(F.map_entries(F.coalesce("metadata", F.create_map().cast(
            T.MapType(T.StringType(), T.StringType()))))))
    sums = [F.sum("count").alias("count"), F.sum("traces").alias("traces"),
            F.min("first").alias("first"), F.max("last").alias("last")]
    sums += [F.sum("outcomes." + name).alias("outcome_" + name) for name in OUTCOMES]
    result = lines.groupBy(KEY + ["metadataEntries"]).agg(*sums)
    result = result.withColumn("metadata", F.map_from_entries("metadataEntries")).withColumn(
        "outcomes", F.struct(*[F.col("outcome_" + name).alias(name) for name in OUTCOMES]))
    return result.select(*COLUMNS).orderBy(*KEY)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", help="summary files or globs")
    parser.add_argument("--json", help="directory for the merged JSON Lines")
    parser.add_argument("--parquet", help="directory for the merged Parquet")
    parser.add_argument("--gzip", action="store_true", help="gzip the JSON Lines parts")
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    if not args.json and not args.parquet:
        parser.error("give --json DIR, --parquet DIR or both")
    spark = session(args.master)
    spark.sparkContext.setLogLevel("ERROR")
    result = merged(spark, args.inputs).cache()
    if args.json:
        (result.coalesce(1).write.mode("overwrite")
         .option("compression", "gzip" if args.gzip else "none")
         .option("ignoreNullFields", "false").json(args.json))
    if args.parquet:
        result.write.mode("overwrite").parquet(args.parquet)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
