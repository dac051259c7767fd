-- The pgbench ceiling of a push: the rows arrange-server writes for a push of :n operations,
-- with no HTTP and no Swift. Under the lock of the log's row: the operations (a body of the
-- size of the benchmark's and its SHA-256), the log's head, and the pushing replica's row.
\set log random(1, 100)
BEGIN;
SELECT head FROM logs WHERE id = :log FOR UPDATE;
INSERT INTO operations (log_id, position, id, replica, sequence, body, digest)
SELECT :log, l.head + g, gen_random_uuid(), '00000000-0000-4000-8000-000000000001', l.head + g, b.body, sha256(convert_to(b.body, 'UTF8'))
FROM logs l, generate_series(1, :n) g, LATERAL (SELECT repeat('x', :bytes) || g AS body) b
WHERE l.id = :log;
UPDATE logs SET head = head + :n WHERE id = :log;
INSERT INTO replicas (log_id, replica, held) VALUES (:log, '00000000-0000-4000-8000-000000000001', 0)
ON CONFLICT (log_id, replica) DO UPDATE SET held = replicas.held + :n, last_seen_at = now();
COMMIT;
