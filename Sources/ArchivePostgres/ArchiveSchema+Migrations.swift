/// The tool's migrations. Each runs in one transaction with `search_path` set to the archive's
/// namespace, so names are unqualified; functions pin that path (`SET search_path FROM
/// CURRENT`) so a trigger never resolves a table of another namespace. Text that is compared
/// or prefix-matched is `COLLATE "C"`: bytewise order (so like LMDB's keys and lowercase hex)
/// and `LIKE 'prefix%'` served by a plain B-tree whatever the database's locale. A migration,
/// once released, is never edited: changes are new migrations. docs/postgres.md explains each.
extension Migration {
    /// 1: records and the columns every query filters on (docs/query.md's `idx.*`).
    public static let records = Migration(version: 1, name: "records and their index", sql: """
        CREATE TABLE records (
            record_id bytea PRIMARY KEY CHECK (octet_length(record_id) = 32),
            body_format smallint NOT NULL CHECK (body_format = 1),
            body bytea NOT NULL,
            kind text COLLATE "C" NOT NULL CHECK (kind <> ''),
            integrity text COLLATE "C" NOT NULL CHECK (integrity <> ''),
            trust text COLLATE "C" CHECK (trust <> ''),
            key_fingerprint text COLLATE "C" CHECK (key_fingerprint ~ '^[0-9a-f]+$'),
            capture_time text COLLATE "C" CHECK (capture_time <> ''),
            ingest_time text COLLATE "C" NOT NULL CHECK (ingest_time <> '')
        );
        COMMENT ON TABLE records IS 'one row per record: its JSON body (IndexedRecord) and the values queries filter on';
        CREATE INDEX records_by_key ON records (key_fingerprint, record_id) WHERE key_fingerprint IS NOT NULL;
        CREATE INDEX records_by_time ON records (capture_time, record_id) WHERE capture_time IS NOT NULL;
        CREATE INDEX records_by_integrity ON records (integrity, record_id);
        CREATE INDEX records_by_trust ON records (trust, record_id) WHERE trust IS NOT NULL;
        CREATE INDEX records_by_kind ON records (kind, record_id);
        CREATE INDEX records_by_ingest ON records (ingest_time, record_id);

        CREATE TABLE record_sidecars (
            record_id bytea NOT NULL REFERENCES records ON DELETE CASCADE,
            sink text COLLATE "C" NOT NULL CHECK (sink <> ''),
            state text COLLATE "C" NOT NULL CHECK (state <> ''),
            PRIMARY KEY (record_id, sink)
        );
        COMMENT ON TABLE record_sidecars IS 'the state of each evidence sink of a record';
        CREATE INDEX record_sidecars_by_state ON record_sidecars (state, record_id);
        CREATE INDEX record_sidecars_by_sink ON record_sidecars (sink, state, record_id);

        CREATE TABLE record_variants (
            blob_id bytea PRIMARY KEY CHECK (octet_length(blob_id) = 32),
            record_id bytea NOT NULL REFERENCES records ON DELETE CASCADE
        );
        COMMENT ON TABLE record_variants IS 'delivery-file blob ID -> the record it carries';
        CREATE INDEX record_variants_by_record ON record_variants (record_id);
        """)

    /// 2: the custody log, one hash chain for every writer (docs/ingest.md's `custody.*`).
    /// The database itself refuses an event that does not continue the head, keeps the head,
    /// and refuses to change or delete an event.
    public static let custody = Migration(version: 2, name: "custody log", sql: """
        CREATE TABLE custody_events (
            seq bigint PRIMARY KEY CHECK (seq >= 1),
            prev_hash bytea NOT NULL CHECK (octet_length(prev_hash) = 32),
            hash bytea NOT NULL CHECK (octet_length(hash) = 32),
            stored bytea NOT NULL CHECK (octet_length(stored) > 32
                                         AND substring(stored FROM octet_length(stored) - 31) = hash)
        );
        COMMENT ON TABLE custody_events IS 'the hash-chained custody log: stored = canonical event bytes || hash, as in LMDB custody.events';
        CREATE TABLE custody_objects (
            object_id text COLLATE "C" NOT NULL,
            seq bigint NOT NULL REFERENCES custody_events,
            PRIMARY KEY (object_id, seq)
        );
        COMMENT ON TABLE custody_objects IS 'events by the record, blob or anchor they name';
        CREATE TABLE custody_head (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            seq bigint NOT NULL CHECK (seq >= 0),
            hash bytea NOT NULL CHECK (octet_length(hash) = 32)
        );
        COMMENT ON TABLE custody_head IS 'seq and hash of the last event (0 and 32 zero bytes when empty), kept by a trigger';
        INSERT INTO custody_head VALUES (true, 0, decode(repeat('00', 32), 'hex'));

        CREATE FUNCTION custody_events_continue_head() RETURNS trigger
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
        DECLARE
            head custody_head%ROWTYPE;
        BEGIN
            SELECT * INTO head FROM custody_head WHERE singleton FOR UPDATE;
            IF NEW.seq <> head.seq + 1 OR NEW.prev_hash <> head.hash THEN
                RAISE EXCEPTION 'custody event % does not continue the head (seq %)', NEW.seq, head.seq
                    USING ERRCODE = 'EXC01';
            END IF;
            UPDATE custody_head SET seq = NEW.seq, hash = NEW.hash WHERE singleton;
            RETURN NEW;
        END
        $fn$;
        CREATE TRIGGER custody_events_continue_head BEFORE INSERT ON custody_events
            FOR EACH ROW EXECUTE FUNCTION custody_events_continue_head();

        CREATE FUNCTION custody_events_append_only() RETURNS trigger
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
        BEGIN
            RAISE EXCEPTION 'custody events are append-only (% refused)', TG_OP USING ERRCODE = 'EXC02';
        END
        $fn$;
        CREATE TRIGGER custody_events_append_only BEFORE UPDATE OR DELETE ON custody_events
            FOR EACH ROW EXECUTE FUNCTION custody_events_append_only();
        CREATE TRIGGER custody_events_no_truncate BEFORE TRUNCATE ON custody_events
            FOR EACH STATEMENT EXECUTE FUNCTION custody_events_append_only();
        """)

    /// 3: trust anchors (docs/ingest.md's `trust.anchors`); the fingerprint must be the DER's SHA-256.
    public static let trust = Migration(version: 3, name: "trust anchors", sql: """
        CREATE TABLE trust_anchors (
            role text COLLATE "C" NOT NULL CHECK (role IN ('signer', 'tsa')),
            fingerprint text COLLATE "C" NOT NULL CHECK (fingerprint = encode(sha256(der), 'hex')),
            der bytea NOT NULL CHECK (octet_length(der) > 0),
            PRIMARY KEY (role, fingerprint)
        );
        COMMENT ON TABLE trust_anchors IS 'signer and TSA anchor certificates (DER) by role and SHA-256';
        """)

    /// 4: the shared work queue of `ingest --enqueue` and `worker`.
    public static let workQueue = Migration(version: 4, name: "work queue", sql: """
        CREATE TABLE work_jobs (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            key text COLLATE "C" NOT NULL UNIQUE CHECK (key <> ''),
            payload jsonb NOT NULL DEFAULT '{}',
            state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
            attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
            worker text,
            lease_expires timestamptz,
            ready_at timestamptz NOT NULL DEFAULT now(),
            error text,
            result text,
            enqueued_at timestamptz NOT NULL DEFAULT now(),
            started_at timestamptz,
            finished_at timestamptz,
            CHECK ((state = 'running') = (lease_expires IS NOT NULL))
        );
        COMMENT ON TABLE work_jobs IS 'jobs (one per capture): pending -> running (leased) -> done | failed';
        CREATE INDEX work_jobs_pending ON work_jobs (id) WHERE state = 'pending';
        CREATE INDEX work_jobs_running ON work_jobs (lease_expires) WHERE state = 'running';
        """)

    /// 5: narrow indexes for counts (bench/pg.sh, docs/postgres.md): one column each, no record
    /// ID, so B-tree deduplication keeps one posting list per value — the fingerprint index is
    /// ~7 MB where `records_by_key` is ~110 MB at 1,000,000 records — and `count(*)` of a value
    /// or a prefix range reads a few pages instead of one entry per record. The listing
    /// indexes of migration 1 stay for ordered, limited lists.
    public static let countIndexes = Migration(version: 5, name: "count indexes", sql: """
        CREATE INDEX records_count_by_key ON records (key_fingerprint) WHERE key_fingerprint IS NOT NULL;
        CREATE INDEX records_count_by_time ON records (capture_time) WHERE capture_time IS NOT NULL;
        CREATE INDEX record_sidecars_count_by_sink ON record_sidecars (sink, state);
        """)

    /// 6: content-addressed records (issue 12 item 4), as LMDB's `exhibit-index/2`: a record's
    /// body is `RecordBody` format 2 (`0x02 ‖ SHA-256(reportId ‖ json) ‖ reportId ‖ json`, the
    /// JSON without the report), byte for byte LMDB's `idx.records` value, and its report is
    /// kept once by its SHA-256 in `record_reports` (never deleted: custody events name
    /// reports). Reads re-hash both and refuse a mismatch as `index.record.damaged`; a format-1
    /// row (report inline, nothing to re-hash against) is refused the same way.
    public static let contentAddressedRecords = Migration(version: 6, name: "content-addressed records", sql: """
        CREATE TABLE record_reports (
            report_id bytea PRIMARY KEY CHECK (octet_length(report_id) = 32),
            report bytea NOT NULL
        );
        COMMENT ON TABLE record_reports IS 'verification reports by their SHA-256 (idx.reports); a record body names its report';
        ALTER TABLE records DROP CONSTRAINT records_body_format_check;
        ALTER TABLE records ADD CONSTRAINT records_body_format_check
            CHECK (body_format IN (1, 2) AND (body_format = 1 OR octet_length(body) > 65));
        """)

    /// 7: the S3 blob ledger shared by every machine of the archive (docs/s3.md, docs/postgres.md):
    /// the blobs the archive holds, and one staging mark per process uploading objects not yet
    /// listed, with an expiry so a dead machine's mark stops keeping `gc` away.
    public static let blobLedger = Migration(version: 7, name: "S3 blob ledger", sql: """
        CREATE TABLE blob_ledger (
            blob_id bytea PRIMARY KEY CHECK (octet_length(blob_id) = 32),
            size bigint NOT NULL CHECK (size >= 0),
            added_at timestamptz NOT NULL DEFAULT now()
        );
        COMMENT ON TABLE blob_ledger IS 'blobs the archive holds in S3 (s3.blobs of an archive without index): written after the object is durable';
        CREATE TABLE blob_pending (
            holder text COLLATE "C" PRIMARY KEY CHECK (holder <> ''),
            started_at timestamptz NOT NULL DEFAULT now(),
            expires timestamptz NOT NULL
        );
        COMMENT ON TABLE blob_pending IS 'processes staging objects not yet in blob_ledger (host:pid:random); gc waits while one is unexpired';
        """)

    /// 8: the record's analyses state as a column of its own (issue 13's `pending` / `done` /
    /// `absent` of `query --analyses`), filled from the format-2 bodies already stored (their
    /// JSON past the 65-byte header), with an index, so the filter is an index scan as on LMDB
    /// (`idx.byAnalyses`) instead of a decode of every body. NULL: a record with no analyses
    /// state (made before it existed, or a format-1 body).
    public static let analysesColumn = Migration(version: 8, name: "analyses state column", sql: """
        ALTER TABLE records ADD COLUMN analyses text COLLATE "C" CHECK (analyses <> '');
        UPDATE records SET analyses = convert_from(substring(body from 66), 'UTF8')::jsonb #>> '{analyses,state}'
            WHERE body_format = 2;
        CREATE INDEX records_by_analyses ON records (analyses, record_id) WHERE analyses IS NOT NULL;
        COMMENT ON COLUMN records.analyses IS 'the body''s analyses.state (pending, done, absent), or NULL without one';
        """)
}
