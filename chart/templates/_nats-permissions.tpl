{{/*
The NATS subjects each component may publish and subscribe: the one place to change them.
Names come from protocol/src/main/java/dev/varroa/protocol/BusNames.java and BusTopology.java;
JetStream's own API subjects follow from what jnats sends for each call the code makes.
A user may publish replies to requests it received (allow_responses) and nothing else unlisted.
Control subjects carry the cluster name: the core's operator and gateway users reach only cluster.name's, each
member's users (nats.members) only that member's. The operator and the gateway take their replies on their own
cluster's inbox prefix (BusNames.operatorInboxPrefix, gatewayInboxPrefix), which no other user may subscribe to.
*/}}

{{- /* The clusters whose control subjects the core's own operator and gateway users reach: cluster.name, then, until
each member connects with its own users (nats.members), the members that still share them
(nats.external.memberClusters). JSON list. */ -}}
{{- define "varroa.natsClusterNames" -}}
{{- $names := list .Values.cluster.name -}}
{{- if .Values.nats.external.enabled -}}
{{- $names = concat $names (.Values.nats.external.memberClusters | default list) -}}
{{- end -}}
{{- toJson ($names | uniq) -}}
{{- end -}}

{{- /* The NATS user names of one member's (.) operator and gateway: what the member's chart connects as. */ -}}
{{- define "varroa.natsMemberUser" -}}
{{- printf "%s-%s" .component .cluster -}}
{{- end -}}

{{- /* The environment variable the NATS pod holds a member's password in: MEMBER_<NAME>_<COMPONENT>_PASSWORD,
upper case, '-' as '_' (a DNS-1123 label has no '_', so two members never share a variable). */ -}}
{{- define "varroa.natsMemberPasswordVar" -}}
{{- printf "MEMBER_%s_%s_PASSWORD" (.cluster | upper | replace "-" "_") (.component | upper) -}}
{{- end -}}

{{- /* The Secret on the core with one member's NATS identity, ready to copy into the member's varroa-nats-creds. */ -}}
{{- define "varroa.natsMemberSecret" -}}
{{- printf "varroa-nats-creds-%s" . -}}
{{- end -}}

{{- /* One quoted list item per cluster of .clusters, with CLUSTER in .pattern replaced by its name. */ -}}
{{- define "varroa.perCluster" -}}
{{- $pattern := .pattern -}}
{{- range .clusters }}
- {{ replace "CLUSTER" . $pattern | quote }}
{{- end }}
{{- end -}}

{{- define "varroa.natsKvApi" -}}
{{- /* JetStream API calls behind jnats' KeyValue on bucket . : info, create, get, and watchAll's ordered consumer. */ -}}
- "$JS.API.STREAM.INFO.KV_{{ . }}"
- "$JS.API.STREAM.CREATE.KV_{{ . }}"
- "$JS.API.DIRECT.GET.KV_{{ . }}"
- "$JS.API.DIRECT.GET.KV_{{ . }}.>"
- "$JS.API.STREAM.MSG.GET.KV_{{ . }}"
{{- end -}}

{{- define "varroa.natsKvWatch" -}}
- "$JS.API.CONSUMER.CREATE.KV_{{ . }}"
- "$JS.API.CONSUMER.CREATE.KV_{{ . }}.>"
- "$JS.API.CONSUMER.DELETE.KV_{{ . }}.>"
- "$JS.API.CONSUMER.INFO.KV_{{ . }}.>"
- "$JS.FC.KV_{{ . }}.>"
{{- end -}}

{{- define "varroa.natsTopologyApi" -}}
{{- /* BusTopology.ensure: both the operator and the gateways create the buckets and the command stream. */ -}}
- "$JS.API.INFO"
- "$JS.API.STREAM.NAMES"
- "$JS.API.STREAM.INFO.varroa_commands"
- "$JS.API.STREAM.CREATE.varroa_commands"
{{ include "varroa.natsKvApi" "varroa_bootstrap_tokens" }}
{{ include "varroa.natsKvApi" "varroa_mite_routes" }}
{{ include "varroa.natsKvApi" "varroa_gateways" }}
{{ include "varroa.natsKvApi" "varroa_controllers" }}
- "$JS.API.STREAM.INFO.varroa_builds"
- "$JS.API.STREAM.CREATE.varroa_builds"
# The recorder's durable consumer is created with the stream (jnats uses the 2.9 name-in-subject form or the older one).
- "$JS.API.CONSUMER.NAMES.varroa_builds"
- "$JS.API.CONSUMER.CREATE.varroa_builds.varroa-recorder"
- "$JS.API.CONSUMER.CREATE.varroa_builds.varroa-recorder.>"
- "$JS.API.CONSUMER.DURABLE.CREATE.varroa_builds.varroa-recorder"
{{- end -}}

{{- define "varroa.natsPermissions.operator" -}}
{{- $cs := .clusters -}}
publish:
  allow:
    {{- include "varroa.natsTopologyApi" . | nindent 4 }}
    # BootstrapTokenIssuer writes token records.
    - "$KV.varroa_bootstrap_tokens.>"
    # LiveControllers: this cluster's Controllers and their UIDs, which the gateways check on stream open.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "$KV.varroa_controllers.CLUSTER.>") | nindent 4 }}
    # MiteRoutes watches routes and gateway presence.
    {{- include "varroa.natsKvWatch" "varroa_mite_routes" | nindent 4 }}
    {{- include "varroa.natsKvWatch" "varroa_gateways" | nindent 4 }}
    # ControlChannel sends desired state to this cluster's gateway holding a mite (request/reply); the gateway user
    # may not publish here.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.gateway.CLUSTER.*.commands") | nindent 4 }}
    # One-shot commands: queued on varroa_commands, then a notice to the gateway holding the mite.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.commands.CLUSTER.>") | nindent 4 }}
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.gateway.CLUSTER.*.queued") | nindent 4 }}
    # ActivityPublisher: Controller lifecycle and installation-wide events, onto the recorder's varroa_activity.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "activity.CLUSTER.>") | nindent 4 }}
    # RecorderJobSchedules: a parked controller's timer triggers, asked of the recorder (request/reply).
    - "varroa.recorder.job-schedules"
    # RecorderTeamPlacements: a CellPool's team placements, recorded in the core's record store (request/reply).
    - "varroa.recorder.team-placements"
    # PipelineRunReporter: the Jenkins queue item (or the failure) of a pipeline run this operator queued, to the
    # core's recorder (request/reply; docs/actions.md).
    - "varroa.recorder.pipeline-run-queued"
    # ClusterBeacon: this cluster's entry in the registry (BusTopology.ensureClusters, then a put).
    {{- include "varroa.natsKvApi" "varroa_clusters" | nindent 4 }}
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "$KV.varroa_clusters.CLUSTER") | nindent 4 }}
    {{- if not .member }}
    # AccessPolicy: every VarroaRole and VarroaRoleBinding, under the one key the BFF reads. The core's operator
    # alone: the BFF authorizes with the core's roles, and a member's operator publishes none.
    {{- include "varroa.natsKvApi" "varroa_access" | nindent 4 }}
    - "$KV.varroa_access.policy"
    # BroodOperations across clusters: the core's operator lists every cluster's controllers and hands each its
    # targets (docs/brood-operations.md); a member's operator reaches no other cluster.
    - "varroa.clusters.*.controllers"
    - "varroa.clusters.*.brood-targets"
    # FleetRoster reads which clusters are registered (the keys of varroa_clusters, an ordered consumer).
    {{- include "varroa.natsKvWatch" "varroa_clusters" | nindent 4 }}
    {{- end }}
subscribe:
  allow:
    # ControlChannel answers this cluster's Jenkins token requests in the operator's queue group.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.operator.CLUSTER.jenkins-token varroa-operator") | nindent 4 }}
    # ControllerListResponder answers the BFF's requests for this cluster's controller rows.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.controllers varroa-operator") | nindent 4 }}
    # ControllerDetailResponder answers the BFF's requests for one controller in full.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.controller varroa-operator") | nindent 4 }}
    # ClusterActionResponder answers the actions the BFF authorized for this cluster (drain; docs/actions.md).
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.actions varroa-operator") | nindent 4 }}
    # ManifestCheckResponder checks a Controller manifest the BFF forwards, against this cluster's classes and defaults.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.manifest-check varroa-operator") | nindent 4 }}
    # BroodOperation and BroodSchedule lists for the BFF, and the targets the core's operator hands this cluster.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.brood-operations varroa-operator") | nindent 4 }}
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.brood-schedules varroa-operator") | nindent 4 }}
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.brood-targets varroa-operator") | nindent 4 }}
    # CellWakeResponder wakes the cell hosting a team when the core's recorder asks (docs/cells.md).
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.cell-wake varroa-operator") | nindent 4 }}
    # CellPoolListResponder answers the BFF's requests for this cluster's CellPools and Teams (docs/cells.md).
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.clusters.CLUSTER.cellpools varroa-operator") | nindent 4 }}
    # Results of this cluster's queued one-shot commands.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.results.CLUSTER.>") | nindent 4 }}
    # Replies to its requests, JetStream API answers and KV watch deliveries: its own cluster's inbox prefix only
    # (BusNames.operatorInboxPrefix), so no other cluster's operator reads them.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "_INBOX_varroa_operator.CLUSTER.>") | nindent 4 }}
    {{- if .sharedInbox }}
    # Members sharing this user (nats.external.memberClusters) may still run a version with the unscoped prefix.
    - "_INBOX_varroa_operator.>"
    {{- end }}
allow_responses: true
{{- end -}}

{{- define "varroa.natsPermissions.gateway" -}}
{{- $cs := .clusters -}}
publish:
  allow:
    {{- include "varroa.natsTopologyApi" . | nindent 4 }}
    # BootstrapTokenLedger marks a token used; RouteTable and PresenceBeacon write routes and presence.
    - "$KV.varroa_bootstrap_tokens.>"
    - "$KV.varroa_mite_routes.>"
    - "$KV.varroa_gateways.>"
    # QueuedCommandDrain: a durable pull consumer per controller on varroa_commands, acked as commands finish.
    - "$JS.API.CONSUMER.CREATE.varroa_commands.>"
    - "$JS.API.CONSUMER.DURABLE.CREATE.varroa_commands.>"
    - "$JS.API.CONSUMER.INFO.varroa_commands.>"
    - "$JS.API.CONSUMER.DELETE.varroa_commands.>"
    - "$JS.API.CONSUMER.MSG.NEXT.varroa_commands.>"
    - "$JS.API.STREAM.MSG.GET.varroa_commands"
    - "$JS.API.DIRECT.GET.varroa_commands"
    - "$JS.ACK.varroa_commands.>"
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.results.CLUSTER.>") | nindent 4 }}
    # JenkinsTokenRelay asks this cluster's operator for a mite's Jenkins token. No command subject: a gateway relays
    # desired state and never sends it (LiveControllerCheck reads varroa_controllers through the KV API above).
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.operator.CLUSTER.jenkins-token") | nindent 4 }}
    # Build events and job schedules onto varroa_builds (publish acks come back on its inbox).
    - "varroa.builds.>"
    # Build claims to the recorder's ledger (request/reply).
    - "varroa.ledger.claim"
    # PipelineCallRelay: a cross-tenant step's call to the recorder (request/reply, docs/pipelines.md).
    - "varroa.recorder.pipeline-calls"
    # ActivityPublisher: mite connections, Jenkins version and plugin changes, onto the recorder's varroa_activity.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "activity.CLUSTER.>") | nindent 4 }}
    # LogAppended: a run's console log grew (core NATS, no bytes).
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.logs.CLUSTER.>") | nindent 4 }}
  deny:
    # Only the operator writes the record of live Controllers the gateway checks mites against.
    - "$KV.varroa_controllers.>"
subscribe:
  allow:
    # CommandRelay and QueuedCommandRunner: commands and queue notices for this cluster's gateways.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.gateway.CLUSTER.*.commands") | nindent 4 }}
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "varroa.gateway.CLUSTER.*.queued") | nindent 4 }}
    # Replies to its requests (Jenkins token grants among them), JetStream API answers and KV watch deliveries: its
    # own cluster's inbox prefix only (BusNames.gatewayInboxPrefix), so no other cluster's gateway reads them.
    {{- include "varroa.perCluster" (dict "clusters" $cs "pattern" "_INBOX_varroa_gateway.CLUSTER.>") | nindent 4 }}
    {{- if .sharedInbox }}
    # Members sharing this user (nats.external.memberClusters) may still run a version with the unscoped prefix.
    - "_INBOX_varroa_gateway.>"
    {{- end }}
allow_responses: true
{{- end -}}

{{- define "varroa.natsPermissions.recorder" -}}
publish:
  allow:
    {{- include "varroa.natsTopologyApi" . | nindent 4 }}
    # The durable pull consumer varroa-recorder on varroa_builds: fetch, then ack each group after its commit.
    - "$JS.API.CONSUMER.INFO.varroa_builds.varroa-recorder"
    - "$JS.API.CONSUMER.MSG.NEXT.varroa_builds.varroa-recorder"
    - "$JS.ACK.varroa_builds.varroa-recorder.>"
    # The recorder creates varroa_activity and its durable pull consumer varroa-recorder-activity, then drains it
    # into the activity table, acking after each commit.
    - "$JS.API.STREAM.INFO.varroa_activity"
    - "$JS.API.STREAM.CREATE.varroa_activity"
    - "$JS.API.STREAM.UPDATE.varroa_activity"
    - "$JS.API.CONSUMER.NAMES.varroa_activity"
    - "$JS.API.CONSUMER.CREATE.varroa_activity.varroa-recorder-activity"
    - "$JS.API.CONSUMER.CREATE.varroa_activity.varroa-recorder-activity.>"
    - "$JS.API.CONSUMER.DURABLE.CREATE.varroa_activity.varroa-recorder-activity"
    - "$JS.API.CONSUMER.INFO.varroa_activity.varroa-recorder-activity"
    - "$JS.API.CONSUMER.MSG.NEXT.varroa_activity.varroa-recorder-activity"
    - "$JS.ACK.varroa_activity.varroa-recorder-activity.>"
    # CellWakes: the recorder sends a cell wake to the operator of the cluster hosting the team (seed 002).
    - "varroa.clusters.*.cell-wake"
    # PipelineRunsResponder forwards a pipeline run to the operator of the Team's cluster (docs/pipelines.md).
    - "varroa.clusters.*.actions"
subscribe:
  allow:
    # The ledger answers build claims in the recorder's queue group.
    - "varroa.ledger.claim varroa-recorder"
    # JobSchedulesResponder answers the operator's requests for a controller's timer triggers.
    - "varroa.recorder.job-schedules varroa-recorder"
    # TeamPlacementsResponder records every cluster's CellPool placements.
    - "varroa.recorder.team-placements varroa-recorder"
    # PipelineRunsResponder takes pipeline run requests and status questions from the BFF and every operator's
    # reports of where Jenkins queued a run.
    - "varroa.recorder.pipeline-runs varroa-recorder"
    - "varroa.recorder.pipeline-run-queued varroa-recorder"
    - "varroa.recorder.pipeline-run-status varroa-recorder"
    # PipelineCallsResponder takes the cross-tenant calls every cluster's gateways relay.
    - "varroa.recorder.pipeline-calls varroa-recorder"
    - "_INBOX.>"
allow_responses: true
{{- end -}}

{{- define "varroa.natsKvRead" -}}
{{- /* Reading bucket . without changing it: info, get, and the ordered consumers behind keys() and watch. */ -}}
- "$JS.API.STREAM.INFO.KV_{{ . }}"
- "$JS.API.DIRECT.GET.KV_{{ . }}"
- "$JS.API.DIRECT.GET.KV_{{ . }}.>"
- "$JS.API.STREAM.MSG.GET.KV_{{ . }}"
{{ include "varroa.natsKvWatch" . }}
{{- end -}}

{{- define "varroa.natsPermissions.dashboard" -}}
{{- /* The BFF reads, and sends the actions it authorized: no stream or bucket it may create or write, no request it
answers. */ -}}
publish:
  allow:
    # Account info and the bucket names: ClusterRoster lists nothing before the first operator made varroa_clusters.
    - "$JS.API.INFO"
    - "$JS.API.STREAM.NAMES"
    # ClusterRoster: the registered clusters.
    {{- include "varroa.natsKvRead" "varroa_clusters" | nindent 4 }}
    # The AccessPolicy the operator keeps (every VarroaRole and VarroaRoleBinding).
    {{- include "varroa.natsKvRead" "varroa_access" | nindent 4 }}
    # Each cluster's operator answers with its controller rows, and with one controller in full.
    - "varroa.clusters.*.controllers"
    - "varroa.clusters.*.controller"
    # ClusterActions: an authorized action to the target cluster's operator (request/reply), and its audit event on
    # the core's installation-wide activity subject (docs/actions.md).
    - "varroa.clusters.*.actions"
    - {{ printf "activity.%s._global" .Values.cluster.name | quote }}
    # A pipeline run goes through the recorder (it records it and wakes the Team's cell), which also says where it is.
    - "varroa.recorder.pipeline-runs"
    - "varroa.recorder.pipeline-run-status"
    # The manifest check (POST /manifests/check) runs in the target cluster's operator.
    - "varroa.clusters.*.manifest-check"
    # Each cluster's operator answers with its BroodOperations and BroodSchedules.
    - "varroa.clusters.*.brood-operations"
    - "varroa.clusters.*.brood-schedules"
    # Each cluster's operator answers with its CellPools and Teams (GET /cells, /teams, MCP list_cells).
    - "varroa.clusters.*.cellpools"
    # Live activity: ordered (ephemeral) consumers on the recorder's varroa_activity, started at a sequence to resume.
    - "$JS.API.STREAM.INFO.varroa_activity"
    - "$JS.API.CONSUMER.CREATE.varroa_activity"
    - "$JS.API.CONSUMER.CREATE.varroa_activity.>"
    - "$JS.API.CONSUMER.INFO.varroa_activity.>"
    - "$JS.API.CONSUMER.DELETE.varroa_activity.>"
    - "$JS.API.CONSUMER.MSG.NEXT.varroa_activity.>"
    - "$JS.FC.varroa_activity.>"
  deny:
    # The wildcards above would reach the recorder's durable consumer (replace, delete, take its messages): it stays the recorder's.
    - "$JS.API.CONSUMER.CREATE.varroa_activity.varroa-recorder-activity"
    - "$JS.API.CONSUMER.CREATE.varroa_activity.varroa-recorder-activity.>"
    - "$JS.API.CONSUMER.DELETE.varroa_activity.varroa-recorder-activity"
    - "$JS.API.CONSUMER.MSG.NEXT.varroa_activity.varroa-recorder-activity"
subscribe:
  allow:
    # Replies to its requests, JetStream API answers and the ordered consumers' deliveries.
    - "_INBOX.>"
    # Core-NATS watchers of the two buckets' subjects (read only: the entries it may get anyway).
    - "$KV.varroa_clusters.>"
    - "$KV.varroa_access.>"
    # Live activity without JetStream: before a recorder made varroa_activity (record store off), no resume.
    - "activity.>"
    # LogTail: announcements that a run's console log grew.
    - "varroa.logs.>"
{{- end -}}

{{/* A permissions map (publish/subscribe allow and deny lists, allow_responses) in nats.conf syntax. The operator's and
the gateway's are rendered for .clusters (a list): the core's own users get varroa.natsClusterNames, a member's
users their member's name alone. */}}
{{- define "varroa.natsPermissionsConf" -}}
{{- $args := dict "root" .root "clusters" .clusters "sharedInbox" .sharedInbox "member" .member -}}
{{- $p := include (printf "varroa.natsPermissions.%s" .user) (ternary $args .root (has .user (list "operator" "gateway"))) | fromYaml -}}
{
{{- range $direction := list "publish" "subscribe" }}
{{- with index $p $direction }}
  {{ $direction }}: {
    allow: [
      {{- range .allow }}
      {{ quote . }}
      {{- end }}
    ]
    {{- with .deny }}
    deny: [
      {{- range . }}
      {{ quote . }}
      {{- end }}
    ]
    {{- end }}
  }
{{- end }}
{{- end }}
{{- if $p.allow_responses }}
  allow_responses: true
{{- end }}
}
{{- end -}}
