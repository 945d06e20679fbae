-- Cross-tenant calls (docs/pipelines.md, "Call another team's pipeline"): a pipeline run another Team's build asked for
-- through its cell's gateway is a pipeline_requests row whose request_id is the call's id. These say who called; all
-- three are '' for a run requested from the core.
ALTER TABLE pipeline_requests
    -- The calling Team, "namespace/name", derived by the recorder from the calling job's folder.
    ADD COLUMN caller_team       text NOT NULL DEFAULT '',
    -- The calling cell's cluster and Controller ("namespace/name"), as its gateway authenticated the mite: only this
    -- cell may ask where the call is.
    ADD COLUMN caller_cluster    text NOT NULL DEFAULT '',
    ADD COLUMN caller_controller text NOT NULL DEFAULT '';
