-- The build record store (seed 001 "Build Data Plane"): what the recorder writes from varroa_builds, and the
-- ledger that answers build claims. Every value here came from an event or a claim; the recorder keeps no other state.

-- Every event applied, by its identity on every hop: a redelivered or re-published event finds its row here
-- and changes nothing. The payload is the event as it arrived (varroa.builds.v1.BuildEvent, binary).
CREATE TABLE run_events (
    controller_uid  text        NOT NULL,
    run_id          text        NOT NULL,
    sequence        bigint      NOT NULL CHECK (sequence > 0),
    job             text        NOT NULL,
    kind            text        NOT NULL,
    emitted_at      timestamptz,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    payload         bytea       NOT NULL,
    PRIMARY KEY (controller_uid, run_id, sequence)
);

-- One row per run. Each group of fields carries the sequence of the event that set it, so an event that arrives
-- late (a lower sequence) never overwrites what a later event set: out of order ends as in order.
CREATE TABLE runs (
    controller_uid         text        NOT NULL,
    run_id                 text        NOT NULL,
    cluster                text        NOT NULL,
    namespace              text        NOT NULL,
    controller_name        text        NOT NULL,
    job                    text        NOT NULL,
    build_number           bigint,
    build_number_sequence  bigint,
    queue_id               bigint,
    queued_at              timestamptz,
    queued_sequence        bigint,
    cause                  text,
    cause_sequence         bigint,
    node                   text,
    queued_millis          bigint,
    started_at             timestamptz,
    started_sequence       bigint,
    result                 text,
    duration_millis        bigint,
    result_sequence        bigint,
    completed_at           timestamptz,
    completed_sequence     bigint,
    finalized_at           timestamptz,
    finalized_sequence     bigint,
    last_sequence          bigint      NOT NULL,
    first_recorded_at      timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (controller_uid, run_id)
);
CREATE INDEX runs_by_job ON runs (job, build_number);
CREATE INDEX runs_by_controller ON runs (cluster, namespace, controller_name);

-- One row per stage (a flow node id, unique within its run), parallel branches included.
CREATE TABLE stages (
    controller_uid    text        NOT NULL,
    run_id            text        NOT NULL,
    stage_id          text        NOT NULL,
    name              text        NOT NULL,
    parallel_branch   text        NOT NULL DEFAULT '',
    name_sequence     bigint      NOT NULL,
    started_at        timestamptz,
    started_sequence  bigint,
    status            text,
    duration_millis   bigint,
    ended_at          timestamptz,
    ended_sequence    bigint,
    PRIMARY KEY (controller_uid, run_id, stage_id),
    FOREIGN KEY (controller_uid, run_id) REFERENCES runs (controller_uid, run_id) ON DELETE CASCADE
);

-- The run's test totals; the latest summary (highest sequence) wins.
CREATE TABLE test_summaries (
    controller_uid    text        NOT NULL,
    run_id            text        NOT NULL,
    total             integer     NOT NULL,
    failed            integer     NOT NULL,
    skipped           integer     NOT NULL,
    summary_sequence  bigint      NOT NULL,
    reported_at       timestamptz,
    PRIMARY KEY (controller_uid, run_id),
    FOREIGN KEY (controller_uid, run_id) REFERENCES runs (controller_uid, run_id) ON DELETE CASCADE
);

-- Each controller's latest job-schedule inventory: one row per job with timer triggers, replaced as a whole.
CREATE TABLE job_schedule_inventories (
    controller_uid    text        PRIMARY KEY,
    cluster           text        NOT NULL,
    namespace         text        NOT NULL,
    controller_name   text        NOT NULL,
    observed_at       timestamptz NOT NULL,
    recorded_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE job_schedules (
    controller_uid    text        NOT NULL REFERENCES job_schedule_inventories (controller_uid) ON DELETE CASCADE,
    job               text        NOT NULL,
    cluster           text        NOT NULL,
    namespace         text        NOT NULL,
    controller_name   text        NOT NULL,
    timer_specs       text[]      NOT NULL,
    observed_at       timestamptz NOT NULL,
    PRIMARY KEY (controller_uid, job)
);

-- The ledger. One row per job (its full name) with the next build number to grant: unique across every
-- controller and cluster that runs the job. An admin may insert a row to start a job at a higher number.
CREATE TABLE build_numbers (
    job          text        PRIMARY KEY,
    next_number  bigint      NOT NULL CHECK (next_number > 0),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Every granted claim: the same (controller, run) asking again gets the same number.
CREATE TABLE claims (
    controller_uid   text        NOT NULL,
    run_id           text        NOT NULL,
    job              text        NOT NULL,
    build_number     bigint      NOT NULL,
    cluster          text        NOT NULL,
    namespace        text        NOT NULL,
    controller_name  text        NOT NULL,
    queue_id         bigint,
    granted_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (controller_uid, run_id),
    UNIQUE (job, build_number)
);

-- A row here refuses every new claim for the job, with the reason shown in Jenkins' queue. Delete it to release.
CREATE TABLE job_holds (
    job        text        PRIMARY KEY,
    reason     text        NOT NULL CHECK (reason <> ''),
    held_by    text,
    held_at    timestamptz NOT NULL DEFAULT now()
);
