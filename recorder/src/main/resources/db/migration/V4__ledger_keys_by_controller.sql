-- Issue 24: the ledger keys by controller. A job's build numbers and holds belong to one controller, named by
-- (cluster, namespace, controller_name) and the job's full name: two tenants' jobs of the same name no longer share
-- numbers, see each other's progress or hold each other. Existing rows are kept (see each table below).
--
-- An empty cluster, namespace and controller_name (all three, never only some) is the installation-wide row an admin
-- may write: in build_numbers the job's floor on every controller, in job_holds a hold on every controller. It is
-- also the column default, so SQL written for the old keys keeps its meaning.

-- build_numbers: one row per (cluster, namespace, controller_name, job).
ALTER TABLE build_numbers DROP CONSTRAINT build_numbers_pkey;
ALTER TABLE build_numbers
    ADD COLUMN cluster          text NOT NULL DEFAULT '',
    ADD COLUMN namespace        text NOT NULL DEFAULT '',
    ADD COLUMN controller_name  text NOT NULL DEFAULT '';

-- Every controller that claimed or ran the job goes on from the job's shared next number: none is granted a number
-- at or below one it may already have.
INSERT INTO build_numbers (cluster, namespace, controller_name, job, next_number, updated_at)
SELECT known.cluster, known.namespace, known.controller_name, shared.job, shared.next_number, shared.updated_at
FROM build_numbers shared
JOIN (SELECT cluster, namespace, controller_name, job FROM claims
      UNION
      SELECT cluster, namespace, controller_name, job FROM runs) known ON known.job = shared.job
WHERE shared.cluster = '' AND known.cluster <> '' AND known.namespace <> '' AND known.controller_name <> '';

-- A shared row some controller now carries on is gone; one no controller ever used (an admin's start number set
-- before any claim) stays as the job's floor on every controller.
DELETE FROM build_numbers shared
WHERE shared.cluster = ''
  AND EXISTS (SELECT 1 FROM build_numbers own WHERE own.job = shared.job AND own.cluster <> '');

ALTER TABLE build_numbers ADD CONSTRAINT build_numbers_controller_complete
    CHECK ((cluster = '') = (namespace = '') AND (namespace = '') = (controller_name = ''));
ALTER TABLE build_numbers ADD PRIMARY KEY (cluster, namespace, controller_name, job);

-- claims: a number is unique per controller and job (the second guard next to build_numbers).
ALTER TABLE claims DROP CONSTRAINT claims_job_build_number_key;
ALTER TABLE claims ADD CONSTRAINT claims_controller_job_build_number_key
    UNIQUE (cluster, namespace, controller_name, job, build_number);

-- job_holds: a hold names the controller. A hold written before held the job everywhere: it keeps doing so (empty
-- key) until an admin replaces it with holds on the controllers meant.
ALTER TABLE job_holds DROP CONSTRAINT job_holds_pkey;
ALTER TABLE job_holds
    ADD COLUMN cluster          text NOT NULL DEFAULT '',
    ADD COLUMN namespace        text NOT NULL DEFAULT '',
    ADD COLUMN controller_name  text NOT NULL DEFAULT '';
ALTER TABLE job_holds ADD CONSTRAINT job_holds_controller_complete
    CHECK ((cluster = '') = (namespace = '') AND (namespace = '') = (controller_name = ''));
ALTER TABLE job_holds ADD PRIMARY KEY (cluster, namespace, controller_name, job);

-- runs: readers find a job's runs, and a build number, on one controller; the old controller index is its prefix.
DROP INDEX runs_by_controller;
CREATE INDEX runs_by_controller_job ON runs (cluster, namespace, controller_name, job, build_number);
