-- Activity (seed 001 "Activity Path"): what happened to controllers and the installation, drained by the recorder
-- from its varroa_activity buffer. One row per event id: a redelivered or republished event changes nothing.
-- An installation-wide (_global) event has an empty namespace and controller.
CREATE TABLE activity (
    id           uuid        PRIMARY KEY,
    cluster      text        NOT NULL,
    namespace    text        NOT NULL DEFAULT '',
    controller   text        NOT NULL DEFAULT '',
    kind         text        NOT NULL,
    actor        text        NOT NULL DEFAULT '',
    summary      text        NOT NULL DEFAULT '',
    occurred_at  timestamptz NOT NULL,
    attributes   jsonb       NOT NULL DEFAULT '{}'::jsonb,
    recorded_at  timestamptz NOT NULL DEFAULT now()
);
-- One controller's history, newest first (GET /activity?controller=...).
CREATE INDEX activity_by_controller ON activity (cluster, namespace, controller, occurred_at);
-- The whole feed in time order, and the retention sweep's cutoff.
CREATE INDEX activity_by_time ON activity (occurred_at);
