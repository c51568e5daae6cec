#!/usr/bin/env python3
"""A sharded database queried on a Dask cluster (README "Many machines"; run by the test
suite). Here the cluster is a LocalCluster on this machine; with a real one, give
Client("scheduler-host:8786") and a sharded directory every worker can read.

    cqldb shard --db sample-db --shards 4 --out sample-sharded
    python3 examples/python/dask_sample.py sample-sharded
"""
import sys

from distributed import Client, LocalCluster

import cqldb
import cqldb.dask

sharded = sys.argv[1] if len(sys.argv) > 1 else "sample-sharded"

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        # one task per shard; rows come back in global id order
        result = cqldb.dask.query(client, sharded, "(match (position :mate))")
        print(len(result), "mates over", len(cqldb.dask.shards(sharded)), "shards")
        for shard in result.stats["per_shard"]:
            print("  shard: %d games, %d matches, %.3f s in the task" %
                  (shard["games_total"], shard["matches"], shard["task_seconds"]))
        # the same rows as a dask.dataframe, one partition per shard
        frame = result.to_dask_dataframe()
        print(frame.groupby("result").id.count().compute().to_dict())
        # the shards' opening trees summed
        tree = cqldb.dask.tree(client, sharded, moves="1.e4")
        print(tree["games"], "games after 1.e4; most played:", tree["moves"][0]["san"])
        # the answer equals the sharded database read in this process
        with cqldb.Database(sharded) as db:
            assert result.ids == db.query("(match (position :mate))").ids
