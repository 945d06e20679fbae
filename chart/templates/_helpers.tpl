{{/*
Names, labels and values every template shares. Object names are fixed by the installation
contract (varroa-operator, varroa-gateway, varroa-nats, varroa-dex, varroa-operator-webhooks):
the binaries and the docs name them, so they do not follow the release name.
*/}}

{{- define "varroa.hive" -}}
{{- if eq .Values.mode "hive" }}true{{ end -}}
{{- end -}}

{{- define "varroa.labels" -}}
app.kubernetes.io/name: varroa
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
app.kubernetes.io/part-of: varroa
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/* What a workload and its Service select pods by: stable across upgrades, so no version in it. */}}
{{- define "varroa.selectorLabels" -}}
app.kubernetes.io/name: varroa
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "varroa.image" -}}
{{- $tag := .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s/varroa/%s:%s" .root.Values.image.registry .name $tag -}}
{{- end -}}

{{/* The in-cluster NATS URL in full mode, the core's bus.url in hive mode. */}}
{{- define "varroa.natsUrl" -}}
{{- if include "varroa.hive" . -}}
{{- .Values.bus.url -}}
{{- else -}}
{{- printf "tls://varroa-nats.%s.svc:4222" .Release.Namespace -}}
{{- end -}}
{{- end -}}

{{/* The NATS user .component connects as: the core's own user in full mode, the member's own (operator-<cluster.name>,
made by the core's nats.members) in hive mode. */}}
{{- define "varroa.natsUser" -}}
{{- if include "varroa.hive" .root -}}
{{- include "varroa.natsMemberUser" (dict "cluster" .root.Values.cluster.name "component" .component) -}}
{{- else -}}
{{- .component -}}
{{- end -}}
{{- end -}}

{{/* Names the NATS server certificate carries: the Services, each pod behind the headless Service, and the external host. */}}
{{- define "varroa.natsDnsNames" -}}
{{- $ns := .Release.Namespace -}}
{{- $domain := .Values.clusterDomain -}}
{{- $names := list "varroa-nats" (printf "varroa-nats.%s" $ns) (printf "varroa-nats.%s.svc" $ns) (printf "varroa-nats.%s.svc.%s" $ns $domain) -}}
{{- $names = append $names (printf "*.varroa-nats-headless.%s.svc" $ns) -}}
{{- $names = append $names (printf "*.varroa-nats-headless.%s.svc.%s" $ns $domain) -}}
{{- if and .Values.nats.external.enabled .Values.nats.external.host -}}
{{- $names = append $names .Values.nats.external.host -}}
{{- end -}}
{{- join "," $names -}}
{{- end -}}

{{/* The restricted Pod Security Standard, for every container the chart renders. */}}
{{- define "varroa.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "varroa.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Spread replicas over nodes unless the user placed them. */}}
{{- define "varroa.affinity" -}}
{{- if .affinity -}}
{{- toYaml .affinity -}}
{{- else -}}
podAntiAffinity:
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "varroa.selectorLabels" . | nindent 12 }}
{{- end -}}
{{- end -}}

{{- define "varroa.scheduling" -}}
{{- with .values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
affinity:
  {{- include "varroa.affinity" (dict "affinity" .values.affinity "root" .root "component" .component) | nindent 2 }}
{{- with .root.Values.image.pullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- end -}}

{{/* The Secret holding the recorder's database user (keys username, password). */}}
{{- define "varroa.recordStoreSecret" -}}
{{- if eq .Values.recordStore.postgres.mode "cnpg" -}}
varroa-recordstore-app
{{- else -}}
{{- .Values.recordStore.postgres.external.existingSecret -}}
{{- end -}}
{{- end -}}
