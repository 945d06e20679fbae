{{/*
The BFF's names and derived settings, shared by dashboard.yaml, dex.yaml (its static client), the NATS
users, the record store's role and the network policies.
*/}}

{{/* The BFF is rendered: full mode and dashboard.enabled. A member's controllers are read through the core's BFF. */}}
{{- define "varroa.dashboard" -}}
{{- if and .Values.dashboard.enabled (not (include "varroa.hive" .)) }}true{{ end -}}
{{- end -}}

{{/* The browser-facing base URL, without a trailing slash. */}}
{{- define "varroa.dashboardPublicUrl" -}}
{{- $d := .Values.dashboard -}}
{{- if $d.publicUrl -}}
{{- trimSuffix "/" $d.publicUrl -}}
{{- else if and $d.ingress.enabled $d.ingress.host -}}
{{- printf "%s://%s" (ternary "https" "http" (not (empty $d.ingress.tls.secretName))) $d.ingress.host -}}
{{- else -}}
{{- /* kubectl port-forward: browsers treat localhost as a secure origin, so the Secure session cookie works. */ -}}
http://localhost:8080
{{- end -}}
{{- end -}}

{{/* The issuer: dashboard.oidc.issuer, else Dex's (through tpl, as dex.yaml renders it); "" when neither (_validate.tpl fails then). */}}
{{- define "varroa.dashboardOidcIssuer" -}}
{{- if .Values.dashboard.oidc.issuer -}}
{{- .Values.dashboard.oidc.issuer -}}
{{- else if .Values.dex.enabled -}}
{{- tpl (.Values.dex.config.issuer | default "") . -}}
{{- end -}}
{{- end -}}

{{/* The Secret (key client-secret) of the BFF's client secret; "" for a public client (no Dex, no existingSecret). */}}
{{- define "varroa.dashboardOidcSecret" -}}
{{- if .Values.dashboard.oidc.existingSecret -}}
{{- .Values.dashboard.oidc.existingSecret -}}
{{- else if .Values.dex.enabled -}}
varroa-dashboard-oidc
{{- end -}}
{{- end -}}

{{/* The chart makes varroa-dashboard-oidc itself (Dex, no existingSecret). */}}
{{- define "varroa.dashboardOidcSecretGenerated" -}}
{{- if and (include "varroa.dashboard" .) .Values.dex.enabled (not .Values.dashboard.oidc.existingSecret) }}true{{ end -}}
{{- end -}}

{{/* The Secret (keys dsn, username, password) of the BFF's read-only database role. */}}
{{- define "varroa.dashboardDbSecret" -}}
{{- if eq .Values.recordStore.postgres.mode "cnpg" -}}
varroa-recordstore-dashboard
{{- else -}}
{{- .Values.dashboard.recordStore.existingSecret -}}
{{- end -}}
{{- end -}}

{{/* The port of a URL: the one it names, else 443 for https and 80 for http. */}}
{{- define "varroa.urlPort" -}}
{{- $url := urlParse . -}}
{{- $hostPort := splitList ":" $url.host -}}
{{- if and (gt (len $hostPort) 1) (regexMatch "^[0-9]+$" (last $hostPort)) -}}
{{- last $hostPort -}}
{{- else if eq $url.scheme "http" -}}
80
{{- else -}}
443
{{- end -}}
{{- end -}}
