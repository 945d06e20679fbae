-- Pipeline runs requested from the core (issue 30, docs/pipelines.md): one row per ActionRequest of verb pipeline-run
-- the BFF sent to the recorder. The request id makes a retried request harmless: a second insert finds this row and
-- answers what the first one was answered. The run itself is found in runs by its Jenkins queue item (queue_id).
CREATE TABLE pipeline_requests (
    request_id      uuid        PRIMARY KEY,
    -- The Team's cluster, namespace and name, and the pipeline's name in its spec.pipelines.
    cluster         text        NOT NULL CHECK (cluster <> ''),
    namespace       text        NOT NULL CHECK (namespace <> ''),
    team            text        NOT NULL CHECK (team <> ''),
    pipeline        text        NOT NULL CHECK (pipeline <> ''),
    -- The build parameters, names and values as sent: kept here, so a secret never belongs in a parameter.
    parameters      jsonb       NOT NULL DEFAULT '{}',
    requested_by    text        NOT NULL DEFAULT '',
    requested_at    timestamptz NOT NULL DEFAULT now(),
    -- What the cell wake found: woken, not-parked, refused, unanswered ('' until asked).
    wake            text        NOT NULL DEFAULT '',
    -- requested (sent to the cluster's operator), queued (Jenkins took it), failed (it never ran: message says why).
    -- running and finished are read from runs, never stored here.
    state           text        NOT NULL CHECK (state IN ('requested', 'queued', 'failed')),
    message         text        NOT NULL DEFAULT '',
    -- Where the operator sent it: the cell Controller hosting the Team, and the job's full name there.
    cell_namespace  text,
    cell            text,
    job             text,
    -- Jenkins' queue item id, from the operator's PipelineRunQueued; the run's RunQueued event carries the same.
    queue_id        bigint,
    queued_at       timestamptz,
    -- The ActionResult the request was answered with (varroa.bus.v1.ActionResult, binary); null while it is handled.
    answer          bytea,
    updated_at      timestamptz NOT NULL DEFAULT now()
);
-- The requests of one Team, newest first (the BFF's list of a Team's runs).
CREATE INDEX pipeline_requests_by_team ON pipeline_requests (cluster, namespace, team, requested_at DESC);

-- A requested run's build: the runs row of the cell with the job and the queue item the operator reported.
CREATE INDEX runs_by_queue_item ON runs (cluster, namespace, controller_name, job, queue_id);
