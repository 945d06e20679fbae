-- Console logs in the record-store database: the postgres blob tier (recordStore.blobs.mode=postgres), for small
-- installs. The gateway appends, a reader reads by byte range, the recorder's retention removes whole logs.

-- One row per written piece of a run's log: data is the bytes [start_offset, start_offset + length(data)).
-- Pieces are written only at the run's stored_through, so they follow each other without holes or overlaps.
CREATE TABLE log_chunks (
    cluster       text        NOT NULL,
    namespace     text        NOT NULL,
    controller    text        NOT NULL,
    run_id        text        NOT NULL,
    start_offset  bigint      NOT NULL CHECK (start_offset >= 0),
    data          bytea       NOT NULL,
    written_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster, namespace, controller, run_id, start_offset)
);

-- Out of line and uncompressed: substring() then fetches only the slices a byte-range read needs.
ALTER TABLE log_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

-- How much of each run's log is stored, whether the last chunk landed, and when it was last written (retention).
CREATE TABLE run_logs (
    cluster          text        NOT NULL,
    namespace        text        NOT NULL,
    controller       text        NOT NULL,
    run_id           text        NOT NULL,
    stored_through   bigint      NOT NULL CHECK (stored_through >= 0),
    complete         boolean     NOT NULL DEFAULT false,
    last_written_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster, namespace, controller, run_id)
);

CREATE INDEX run_logs_last_written_at ON run_logs (last_written_at);

-- The gateway's role (the chart's Secret varroa-recordstore-gateway) reads and writes only these two tables.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'varroa_gateway') THEN
        GRANT SELECT, INSERT, UPDATE ON log_chunks, run_logs TO varroa_gateway;
    END IF;
END
$$;
