"""The run ledger's tables, and the statements that claim and complete sample slots."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS triad_runs (
    run_id TEXT PRIMARY KEY,
    options JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS triad_samples (
    run_id TEXT NOT NULL REFERENCES triad_runs (run_id),
    n INTEGER NOT NULL,
    question_type TEXT NOT NULL,
    is_binary BOOLEAN NOT NULL,
    wanted TEXT,
    status TEXT NOT NULL DEFAULT 'running',
    worker TEXT,
    lease_until TIMESTAMPTZ,
    outcome TEXT,
    record JSONB,
    rejection JSONB,
    summary JSONB,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, n)
);
ALTER TABLE triad_samples ADD COLUMN IF NOT EXISTS wanted TEXT;
ALTER TABLE triad_samples ADD COLUMN IF NOT EXISTS retired INTEGER;
ALTER TABLE triad_samples ADD COLUMN IF NOT EXISTS claim_id TEXT;
ALTER TABLE triad_runs ADD COLUMN IF NOT EXISTS manifest JSONB;
CREATE TABLE IF NOT EXISTS triad_seeds (
    run_id TEXT NOT NULL,
    chunk_id TEXT NOT NULL,
    PRIMARY KEY (run_id, chunk_id)
);
CREATE TABLE IF NOT EXISTS triad_questions (
    run_id TEXT NOT NULL,
    normalised TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (run_id, normalised)
);
"""


#: A worker's claim, decided in one statement: an abandoned slot (lease expired) is taken over;
#: failing that, a new slot opens for the cell furthest from its quota (the first such cell on a
#: tie) among those that still need more than they have running and have not hit their attempt cap.
#: A yes/no slot asks for the answer ("yes" or "no", column `wanted`) its cell has fewer of, accepted
#: or running ("yes" on a tie), so a cell's Yes and No counts end at most one apart. A `retired` slot (its
#: record left the dataset in that version, `graph.refresh`) counts as started only.
#: A claim sent again under the same `claim_id` (its reply was lost with the connection, though the
#: server had committed it) returns the slot the first one took, so that slot is not left running
#: with nobody to run it.
CLAIM_SQL = """
WITH repeated AS (
    SELECT n, question_type, is_binary, wanted, false AS fresh FROM triad_samples
    WHERE run_id = %(run_id)s AND claim_id = %(claim_id)s AND worker = %(worker)s AND status = 'running'
), abandoned AS (
    SELECT n FROM triad_samples
    WHERE run_id = %(run_id)s AND status = 'running' AND lease_until < now()
        AND NOT EXISTS (SELECT 1 FROM repeated)
    ORDER BY n LIMIT 1 FOR UPDATE SKIP LOCKED
), reclaimed AS (
    UPDATE triad_samples SET worker = %(worker)s, claim_id = %(claim_id)s,
        lease_until = now() + make_interval(secs => %(lease)s), updated_at = now()
    WHERE run_id = %(run_id)s AND n = (SELECT n FROM abandoned)
    RETURNING n, question_type, is_binary, wanted, false AS fresh
), counts AS (
    SELECT question_type, is_binary, count(*) FILTER (WHERE outcome = 'accepted' AND retired IS NULL) AS accepted,
        count(*) FILTER (WHERE status = 'running') AS running, count(*) AS started,
        count(*) FILTER (WHERE wanted = 'yes' AND retired IS NULL AND (outcome = 'accepted' OR status = 'running'))
            AS yes_taken,
        count(*) FILTER (WHERE wanted = 'no' AND retired IS NULL AND (outcome = 'accepted' OR status = 'running'))
            AS no_taken
    FROM triad_samples WHERE run_id = %(run_id)s GROUP BY question_type, is_binary
), choice AS (
    SELECT cell.question_type, cell.is_binary, CASE WHEN cell.is_binary THEN
        CASE WHEN coalesce(counts.yes_taken, 0) > coalesce(counts.no_taken, 0) THEN 'no' ELSE 'yes' END
    END AS wanted
    FROM unnest(%(types)s::text[], %(binaries)s::boolean[], %(quotas)s::integer[], %(caps)s::integer[])
        WITH ORDINALITY AS cell (question_type, is_binary, quota, cap, position)
    LEFT JOIN counts USING (question_type, is_binary)
    WHERE cell.quota - coalesce(counts.accepted, 0) - coalesce(counts.running, 0) > 0
        AND coalesce(counts.started, 0) < cell.cap
    ORDER BY (cell.quota - coalesce(counts.accepted, 0))::float8 / cell.quota DESC, cell.position
    LIMIT 1
), opened AS (
    INSERT INTO triad_samples (run_id, n, question_type, is_binary, wanted, worker, claim_id, lease_until)
    SELECT %(run_id)s, (SELECT coalesce(max(n), -1) + 1 FROM triad_samples WHERE run_id = %(run_id)s),
        question_type, is_binary, wanted, %(worker)s, %(claim_id)s, now() + make_interval(secs => %(lease)s)
    FROM choice WHERE NOT EXISTS (SELECT 1 FROM reclaimed) AND NOT EXISTS (SELECT 1 FROM repeated)
    RETURNING n, question_type, is_binary, wanted, true AS fresh
)
SELECT * FROM repeated UNION ALL SELECT * FROM reclaimed UNION ALL SELECT * FROM opened
"""

COMPLETE_SQL = (
    "UPDATE triad_samples SET status = 'done', outcome = %s, record = %s, rejection = %s, summary = %s,"
    " lease_until = NULL, updated_at = now() WHERE run_id = %s AND n = %s"
)

#: The finished slots still in the dataset, with the `brief` of an accepted record (see `RunLedger.finished`).
FINISHED_SQL = """
SELECT n, question_type, is_binary AS binary, wanted, outcome, summary, CASE WHEN record IS NOT NULL THEN
    jsonb_build_object('question', record->'question', 'answer', record->'answer', 'language', record->'language',
        'difficulty', record->'difficulty', 'n_relevant', record->'n_relevant', 'temporal', record->'temporal',
        'answerable', coalesce(record->'answerable', 'true'),
        'sources', jsonb_path_query_array(record, '$.supporting[*].metadata.source')) END AS brief
FROM triad_samples WHERE run_id = %s AND status = 'done' AND retired IS NULL ORDER BY n
"""
