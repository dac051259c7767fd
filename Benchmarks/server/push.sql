-- The pgbench ceiling of a push: the rows arrange-server writes for a push of :n operations,
-- with no HTTP and no Swift. Under the user's row lock: the operations (a body of the size of
-- the benchmark's and its SHA-256), the log's head, and the pushing replica's row.
\set user random(1, 100)
BEGIN;
SELECT head FROM users WHERE id = :user FOR UPDATE;
INSERT INTO operations (user_id, position, id, replica, sequence, body, digest)
SELECT :user, u.head + g, gen_random_uuid(), '00000000-0000-4000-8000-000000000001', u.head + g, b.body, sha256(convert_to(b.body, 'UTF8'))
FROM users u, generate_series(1, :n) g, LATERAL (SELECT repeat('x', :bytes) || g AS body) b
WHERE u.id = :user;
UPDATE users SET head = head + :n WHERE id = :user;
INSERT INTO replicas (user_id, replica, held) VALUES (:user, '00000000-0000-4000-8000-000000000001', 0)
ON CONFLICT (user_id, replica) DO UPDATE SET held = replicas.held + :n, last_seen_at = now();
COMMIT;
