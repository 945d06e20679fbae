{{/*
The record store's blob settings for the components that read or write console logs (the env names of
BlobStoreSettings.fromEnv), and the names of the record store's objects.
*/}}

{{/* The CloudNativePG Cluster and the objects that go with it exist: core, record store on, mode cnpg. */}}
{{- define "varroa.recordStoreCnpg" -}}
{{- if and .Values.recordStore.enabled (not (include "varroa.hive" .)) (eq .Values.recordStore.postgres.mode "cnpg") }}true{{ end -}}
{{- end -}}

{{/* The Secret (keys dsn, username, password) the gateway and the operator write log chunks with in postgres blob mode. */}}
{{- define "varroa.blobPostgresSecret" -}}
{{- if include "varroa.recordStoreCnpg" . -}}
varroa-recordstore-gateway
{{- else -}}
{{- .Values.recordStore.postgres.external.existingSecret -}}
{{- end -}}
{{- end -}}

{{/* The port of recordStore.blobs.s3.url: the one it names, else 443 for https and 80 for http. */}}
{{- define "varroa.blobS3Port" -}}
{{- $url := urlParse .Values.recordStore.blobs.s3.url -}}
{{- $hostPort := splitList ":" $url.host -}}
{{- if and (gt (len $hostPort) 1) (regexMatch "^[0-9]+$" (last $hostPort)) -}}
{{- last $hostPort -}}
{{- else if eq $url.scheme "http" -}}
80
{{- else -}}
443
{{- end -}}
{{- end -}}

{{/*
Env of the blob store, for .root with recordStore.enabled. .ownDatabase: the recorder, which in postgres
blob mode falls back to its own database user (the owner, who may delete expired logs) instead of the
gateway's role, which may only read and write. .postgresSecret: another role's Secret for postgres blob
mode (the BFF's read-only role).
*/}}
{{- define "varroa.blobEnv" -}}
{{- $b := .root.Values.recordStore.blobs -}}
- name: VARROA_BLOB_MODE
  value: {{ $b.mode | quote }}
{{- if eq $b.mode "s3" }}
- name: VARROA_BLOB_S3_URL
  value: {{ $b.s3.url | quote }}
- name: VARROA_BLOB_S3_REGION
  value: {{ $b.s3.region | quote }}
# access-key-id, secret-access-key and an optional session-token, re-read when the Secret changes.
- name: VARROA_BLOB_S3_CREDENTIALS_DIR
  value: /var/run/varroa/blob-credentials
{{- else if not .ownDatabase }}
- name: VARROA_BLOB_POSTGRES_DSN
  valueFrom:
    secretKeyRef:
      name: {{ .postgresSecret | default (include "varroa.blobPostgresSecret" .root) }}
      key: dsn
- name: VARROA_BLOB_POSTGRES_USER
  valueFrom:
    secretKeyRef:
      name: {{ .postgresSecret | default (include "varroa.blobPostgresSecret" .root) }}
      key: username
- name: VARROA_BLOB_POSTGRES_PASSWORD_FILE
  value: /var/run/varroa/blob-db/password
{{- end }}
{{- end -}}

{{- define "varroa.blobVolumeMounts" -}}
{{- $b := .root.Values.recordStore.blobs -}}
{{- if eq $b.mode "s3" }}
- name: blob-credentials
  mountPath: /var/run/varroa/blob-credentials
  readOnly: true
{{- else if not .ownDatabase }}
- name: blob-db
  mountPath: /var/run/varroa/blob-db
  readOnly: true
{{- end }}
{{- end -}}

{{- define "varroa.blobVolumes" -}}
{{- $b := .root.Values.recordStore.blobs -}}
{{- if eq $b.mode "s3" }}
# The whole Secret, not items: session-token is optional, and a mounted Secret follows a rotation without a restart.
- name: blob-credentials
  secret:
    secretName: {{ $b.s3.existingSecret }}
    defaultMode: 0440
{{- else if not .ownDatabase }}
- name: blob-db
  secret:
    secretName: {{ .postgresSecret | default (include "varroa.blobPostgresSecret" .root) }}
    defaultMode: 0440
    items:
      - key: password
        path: password
{{- end }}
{{- end -}}
