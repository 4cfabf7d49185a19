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
ALTER TABLE triad_samples ADD COLUMN IF NOT EXISTS query_style TEXT;
ALTER TABLE triad_samples ADD COLUMN IF NOT EXISTS styled TEXT;
ALTER TABLE triad_samples ADD COLUMN IF NOT EXISTS persona TEXT;
ALTER TABLE triad_runs ADD COLUMN IF NOT EXISTS manifest JSONB;
ALTER TABLE triad_runs ADD COLUMN IF NOT EXISTS model_modes JSONB;
ALTER TABLE triad_runs ADD COLUMN IF NOT EXISTS stopped TEXT;
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
#:
#: With query styles (`styles`, `style_quotas`), a new slot is given the style (column `query_style`)
#: that still has places: a style's place is taken by a running slot asked for it or an accepted record
#: that kept it (column `styled`; a restyle that fell back keeps `natural`, and its style's place opens
#: again). `keyword` never goes to a yes/no cell, and takes an open cell's place first once its places
#: left are as many as the open places left. Among the rest, the style this cell holds least of (for its
#: quota) goes first, so styles spread over the cells; then the one furthest from its quota.
#: A run stopped because no sample of it can work (`triad_runs.stopped`) opens no slot.
#: With personas (`personas`, `persona_quotas`), a new slot is asked by the persona furthest from its quota
#: (running slots and accepted records count), the first listed on a tie.
CLAIM_SQL = """
WITH repeated AS (
    SELECT n, question_type, is_binary, wanted, query_style, persona, false AS fresh FROM triad_samples
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
    RETURNING n, question_type, is_binary, wanted, query_style, persona, false AS fresh
), counts AS (
    SELECT question_type, is_binary, count(*) FILTER (WHERE outcome = 'accepted' AND retired IS NULL) AS accepted,
        count(*) FILTER (WHERE status = 'running') AS running, count(*) AS started,
        count(*) FILTER (WHERE wanted = 'yes' AND retired IS NULL AND (outcome = 'accepted' OR status = 'running'))
            AS yes_taken,
        count(*) FILTER (WHERE wanted = 'no' AND retired IS NULL AND (outcome = 'accepted' OR status = 'running'))
            AS no_taken
    FROM triad_samples WHERE run_id = %(run_id)s GROUP BY question_type, is_binary
), plan AS (
    SELECT cell.question_type, cell.is_binary, cell.quota, cell.cap, cell.position,
        cell.quota - coalesce(counts.accepted, 0) - coalesce(counts.running, 0) AS places,
        coalesce(counts.accepted, 0) AS accepted, coalesce(counts.started, 0) AS started,
        coalesce(counts.yes_taken, 0) AS yes_taken, coalesce(counts.no_taken, 0) AS no_taken
    FROM unnest(%(types)s::text[], %(binaries)s::boolean[], %(quotas)s::integer[], %(caps)s::integer[])
        WITH ORDINALITY AS cell (question_type, is_binary, quota, cap, position)
    LEFT JOIN counts USING (question_type, is_binary)
), choice AS (
    SELECT question_type, is_binary, CASE WHEN is_binary THEN
        CASE WHEN yes_taken > no_taken THEN 'no' ELSE 'yes' END
    END AS wanted
    FROM plan WHERE places > 0 AND started < cap
        AND NOT EXISTS (SELECT 1 FROM triad_runs WHERE run_id = %(run_id)s AND stopped IS NOT NULL)
    ORDER BY (quota - accepted)::float8 / quota DESC, position
    LIMIT 1
), styles_taken AS (
    SELECT coalesce(CASE WHEN status = 'running' THEN query_style ELSE coalesce(styled, 'natural') END, 'natural')
            AS style,
        question_type, is_binary
    FROM triad_samples
    WHERE run_id = %(run_id)s AND retired IS NULL AND (status = 'running' OR outcome = 'accepted')
        AND cardinality(%(styles)s::text[]) > 0
), style_choice AS (
    SELECT style.name AS query_style
    FROM choice,
        unnest(%(styles)s::text[], %(style_quotas)s::integer[]) WITH ORDINALITY AS style (name, quota, position),
    LATERAL (
        SELECT style.quota - count(*) AS places_left,
            count(*) FILTER (WHERE taken.question_type = choice.question_type AND taken.is_binary = choice.is_binary)
                AS in_cell
        FROM styles_taken AS taken WHERE taken.style = style.name
    ) AS used
    WHERE NOT (choice.is_binary AND style.name = 'keyword')
    ORDER BY used.places_left > 0 DESC,
        (style.name = 'keyword' AND used.places_left > 0
            AND used.places_left >= (SELECT coalesce(sum(places), 0) FROM plan WHERE places > 0 AND NOT is_binary))
            DESC,
        used.in_cell::float8 / style.quota, used.places_left::float8 / style.quota DESC, style.position
    LIMIT 1
), persona_choice AS (
    SELECT asker.name AS persona
    FROM unnest(%(personas)s::text[], %(persona_quotas)s::integer[]) WITH ORDINALITY AS asker (name, quota, position),
    LATERAL (
        SELECT count(*) AS taken FROM triad_samples
        WHERE run_id = %(run_id)s AND persona = asker.name AND retired IS NULL
            AND (status = 'running' OR outcome = 'accepted')
    ) AS used
    ORDER BY (asker.quota - used.taken)::float8 / greatest(asker.quota, 1) DESC, asker.position
    LIMIT 1
), opened AS (
    INSERT INTO triad_samples
        (run_id, n, question_type, is_binary, wanted, query_style, persona, worker, claim_id, lease_until)
    SELECT %(run_id)s, (SELECT coalesce(max(n), -1) + 1 FROM triad_samples WHERE run_id = %(run_id)s),
        question_type, is_binary, wanted, (SELECT query_style FROM style_choice), (SELECT persona FROM persona_choice),
        %(worker)s, %(claim_id)s, now() + make_interval(secs => %(lease)s)
    FROM choice WHERE NOT EXISTS (SELECT 1 FROM reclaimed) AND NOT EXISTS (SELECT 1 FROM repeated)
    RETURNING n, question_type, is_binary, wanted, query_style, persona, true AS fresh
)
SELECT * FROM repeated UNION ALL SELECT * FROM reclaimed UNION ALL SELECT * FROM opened
"""

COMPLETE_SQL = (
    "UPDATE triad_samples SET status = 'done', outcome = %s, record = %s, rejection = %s, summary = %s, styled = %s,"
    " lease_until = NULL, updated_at = now() WHERE run_id = %s AND n = %s"
)

#: The finished slots still in the dataset, with the `brief` of an accepted record (see `Ledger.finished`);
#: its question is the canonical one, which the duplicate check and the coverage read.
FINISHED_SQL = """
SELECT n, question_type, is_binary AS binary, wanted, outcome, summary, CASE WHEN record IS NOT NULL THEN
    jsonb_build_object('question', coalesce(record->'canonical_question', record->'question'),
        'answer', record->'answer', 'language', record->'language',
        'difficulty', record->'difficulty', 'n_relevant', record->'n_relevant', 'temporal', record->'temporal',
        'answerable', coalesce(record->'answerable', 'true'),
        'sources', jsonb_path_query_array(record, '$.supporting[*].metadata.source')) END AS brief
FROM triad_samples WHERE run_id = %s AND status = 'done' AND retired IS NULL ORDER BY n
"""
