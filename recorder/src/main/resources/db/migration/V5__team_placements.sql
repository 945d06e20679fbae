-- Cells (issue 29): where each Team is placed, as its cluster's operator reports it. A member runs no recorder, so the
-- core's record store holds every cluster's placements (seed 002). The operator sends one CellPool's whole placement
-- at a time; the recorder replaces that pool's rows with it, so a team absent from the snapshot has no row.
CREATE TABLE team_placements (
    cluster      text        NOT NULL CHECK (cluster <> ''),
    namespace    text        NOT NULL CHECK (namespace <> ''),
    team         text        NOT NULL CHECK (team <> ''),
    pool         text        NOT NULL CHECK (pool <> ''),
    cell         text        NOT NULL CHECK (cell <> ''),
    -- Team status.placedSince as the operator sent it: when the team came onto this cell.
    since        timestamptz NOT NULL,
    -- When this row last changed (a repeated snapshot changes nothing).
    recorded_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster, namespace, team)
);
-- The replace of one pool's snapshot, and the /cells page's block per pool.
CREATE INDEX team_placements_by_pool ON team_placements (cluster, namespace, pool, cell);
