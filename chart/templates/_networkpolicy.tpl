{{/* Pieces of the NetworkPolicies (templates/networkpolicies.yaml). */}}
{{- define "varroa.np.dns" -}}
# DNS: the cluster's resolver pods.
- to:
    - namespaceSelector:
        matchLabels:
          kubernetes.io/metadata.name: kube-system
      podSelector:
        matchLabels:
          k8s-app: kube-dns
  ports:
    - port: 53
      protocol: UDP
    - port: 53
      protocol: TCP
{{- end -}}
{{- define "varroa.np.pods" -}}
podSelector:
  matchLabels:
    {{- include "varroa.selectorLabels" . | nindent 4 }}
{{- end -}}
{{- define "varroa.np.natsEgress" -}}
{{- if include "varroa.hive" . }}
# The core's NATS endpoint, on the ports bus.url names.
- to:
    {{- range .Values.networkPolicy.coreNatsEgress.cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
  ports:
    {{- $ports := list -}}
    {{- range include "varroa.busUrls" . | fromJsonArray -}}
    {{- $ports = append $ports (regexReplaceAll "^.*:([0-9]+)$" . "${1}") -}}
    {{- end }}
    {{- range $ports | uniq }}
    - port: {{ . | int }}
      protocol: TCP
    {{- end }}
{{- else }}
# The NATS servers of this release.
- to:
    - {{ include "varroa.np.pods" (dict "root" . "component" "nats") | nindent 6 | trim }}
  ports:
    - port: 4222
      protocol: TCP
{{- end }}
{{- end -}}
{{/* The CloudNativePG instances of varroa-recordstore, as a peer. */}}
{{- define "varroa.np.cnpgPods" -}}
podSelector:
  matchLabels:
    cnpg.io/cluster: varroa-recordstore
{{- end -}}
{{/* Egress to the object store of recordStore.blobs.s3.url (s3 blob mode), when its addresses are listed. */}}
{{- define "varroa.np.blobS3Egress" -}}
{{- $np := .Values.networkPolicy -}}
{{- if and .Values.recordStore.enabled (eq .Values.recordStore.blobs.mode "s3") $np.recordStoreBlobEgress.cidrs }}
# networkPolicy.recordStoreBlobEgress.cidrs: the object store, on the port of recordStore.blobs.s3.url.
- to:
    {{- range $np.recordStoreBlobEgress.cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
  ports:
    - port: {{ include "varroa.blobS3Port" . | int }}
      protocol: TCP
{{- end }}
{{- end -}}
{{/* Egress of the gateway and the operator to the database they write log chunks to (postgres blob mode). */}}
{{- define "varroa.np.blobPostgresEgress" -}}
{{- $np := .Values.networkPolicy -}}
{{- if and .Values.recordStore.enabled (eq .Values.recordStore.blobs.mode "postgres") }}
{{- if include "varroa.recordStoreCnpg" . }}
# The CloudNativePG instances of varroa-recordstore: log chunks.
- to:
    - {{ include "varroa.np.cnpgPods" . | nindent 6 | trim }}
  ports:
    - port: 5432
      protocol: TCP
{{- else if $np.recordStorePostgresEgress.cidrs }}
# networkPolicy.recordStorePostgresEgress.cidrs: the database log chunks go to (on a member, the core's memberEndpoint).
- to:
    {{- range $np.recordStorePostgresEgress.cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
  ports:
    - port: 5432
      protocol: TCP
{{- end }}
{{- end }}
{{- end -}}
{{/* networkPolicy.cellIsolation: where the cells' Jenkins pods may connect; the operator adds its update centers. */}}
{{- define "varroa.np.cellEgress" -}}
{{- $np := .Values.networkPolicy -}}
{{ include "varroa.np.dns" . }}
# This release's gateways: the mite's control channel.
- to:
    - namespaceSelector:
        matchLabels:
          kubernetes.io/metadata.name: {{ .Release.Namespace }}
      {{- include "varroa.np.pods" (dict "root" . "component" "gateway") | nindent 6 }}
  ports:
    - port: 9090
      protocol: TCP
# The API server: Jenkins starts its agents' pods (networkPolicy.apiServer.cidrs, else any address on its ports).
{{- if $np.apiServer.cidrs }}
- to:
    {{- range $np.apiServer.cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
  ports:
{{- else }}
- ports:
{{- end }}
    - port: 443
      protocol: TCP
    - port: 6443
      protocol: TCP
{{- with include "varroa.np.blobS3Egress" . | trim }}
{{ . }}
{{- end }}
{{- with $np.cellIsolation.extraEgress }}
{{ toYaml . }}
{{- end }}
{{- end -}}
