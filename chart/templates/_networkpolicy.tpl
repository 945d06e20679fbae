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
