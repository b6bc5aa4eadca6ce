-- Hand-written: the cluster's identity (src/cluster/node.ts). Nodes on this database put it in
-- the bus's subjects, message IDs and bucket names, so two clusters (or a database restored
-- or made anew) sharing one NATS server never take each other's events or nodes.
CREATE TABLE parley_cluster.identity (
  id text PRIMARY KEY,
  one boolean NOT NULL DEFAULT true UNIQUE CHECK (one)
);
--> statement-breakpoint
INSERT INTO parley_cluster.identity (id) VALUES (replace(gen_random_uuid()::text, '-', ''));
