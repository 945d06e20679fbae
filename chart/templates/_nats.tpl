{{/* nats.conf of the core's NATS. Passwords come from the environment ($NAME), set from the Secret varroa-nats-creds
and, for each of nats.members, from varroa-nats-creds-<member>; the operator makes them all. */}}
{{- define "varroa.natsConf" -}}
{{- $n := .Values.nats -}}
# Rendered by the Varroa chart (templates/_nats.tpl); permissions in templates/_nats-permissions.tpl.
server_name: $SERVER_NAME
listen: 0.0.0.0:4222
# The monitoring endpoint (connections, subjects, account details) answers only inside the pod: the probes.
http: 127.0.0.1:8222
max_payload: 8MB

tls {
  cert_file: /etc/nats/tls/tls.crt
  key_file: /etc/nats/tls/tls.key
  ca_file: /etc/nats/tls/ca.crt
  timeout: 5
}

jetstream {
  store_dir: /data/jetstream
  max_memory_store: {{ $n.jetstream.maxMemoryStore }}
  max_file_store: {{ $n.jetstream.maxFileStore }}
}
{{- if gt (int $n.replicas) 1 }}

cluster {
  name: varroa
  listen: 0.0.0.0:6222
  tls {
    cert_file: /etc/nats/tls/tls.crt
    key_file: /etc/nats/tls/tls.key
    ca_file: /etc/nats/tls/ca.crt
    timeout: 5
  }
  routes: [
    {{- range $i := until (int $n.replicas) }}
    nats-route://varroa-nats-{{ $i }}.varroa-nats-headless.{{ $.Release.Namespace }}.svc.{{ $.Values.clusterDomain }}:6222
    {{- end }}
  ]
}
{{- end }}

{{- $own := include "varroa.natsClusterNames" . | fromJsonArray }}
{{- $shared := and $n.external.enabled (not (empty $n.external.memberClusters)) }}

authorization {
  users: [
    {
      user: operator
      password: $OPERATOR_PASSWORD
      permissions: {{ include "varroa.natsPermissionsConf" (dict "user" "operator" "root" . "clusters" $own "sharedInbox" $shared) | indent 6 | trim }}
    }
    {
      user: gateway
      password: $GATEWAY_PASSWORD
      permissions: {{ include "varroa.natsPermissionsConf" (dict "user" "gateway" "root" . "clusters" $own "sharedInbox" $shared) | indent 6 | trim }}
    }
    {{- range $member := $n.members }}
    {{- range $component := list "operator" "gateway" }}
    {{- $m := dict "cluster" $member "component" $component }}
    # Member {{ $member }}'s {{ $component }}: the same rights as this cluster's, for {{ $member }} alone.
    {
      user: {{ include "varroa.natsMemberUser" $m }}
      password: ${{ include "varroa.natsMemberPasswordVar" $m }}
      permissions: {{ include "varroa.natsPermissionsConf" (dict "user" $component "root" $ "clusters" (list $member) "member" true) | indent 6 | trim }}
    }
    {{- end }}
    {{- end }}
    {{- if .Values.recordStore.enabled }}
    {
      user: recorder
      password: $RECORDER_PASSWORD
      permissions: {{ include "varroa.natsPermissionsConf" (dict "user" "recorder" "root" .) | indent 6 | trim }}
    }
    {{- end }}
    {{- if include "varroa.dashboard" . }}
    {
      user: dashboard
      password: $DASHBOARD_PASSWORD
      permissions: {{ include "varroa.natsPermissionsConf" (dict "user" "dashboard" "root" .) | indent 6 | trim }}
    }
    {{- end }}
  ]
}
{{- end -}}

{{- define "varroa.natsPodTemplate" -}}
{{- $n := .Values.nats -}}
{{- $c := dict "root" . "component" "nats" -}}
metadata:
  labels:
    {{- include "varroa.labels" $c | nindent 4 }}
  annotations:
    # A changed nats.conf rolls the servers: NATS reads it only at start.
    checksum/config: {{ include "varroa.natsConf" . | sha256sum }}
spec:
  serviceAccountName: varroa-nats
  automountServiceAccountToken: false
  securityContext:
    {{- include "varroa.podSecurityContext" (dict "uid" 65532) | nindent 4 }}
  affinity:
    {{- include "varroa.affinity" (dict "affinity" dict "root" . "component" "nats") | nindent 4 }}
  {{- with .Values.image.pullSecrets }}
  imagePullSecrets:
    {{- range . }}
    - name: {{ . }}
    {{- end }}
  {{- end }}
  containers:
    - name: nats
      image: {{ printf "%s:%s" $n.image.repository $n.image.tag }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      command: ["nats-server", "--config", "/etc/nats/config/nats.conf"]
      ports:
        - name: client
          containerPort: 4222
        - name: cluster
          containerPort: 6222
      env:
        - name: SERVER_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        - name: OPERATOR_PASSWORD
          valueFrom:
            secretKeyRef:
              name: varroa-nats-creds
              key: operator-password
        - name: GATEWAY_PASSWORD
          valueFrom:
            secretKeyRef:
              name: varroa-nats-creds
              key: gateway-password
        {{- range $member := $n.members }}
        {{- range $component := list "operator" "gateway" }}
        # Made by the operator at its start, with the member's copy of the CA (nats.members).
        - name: {{ include "varroa.natsMemberPasswordVar" (dict "cluster" $member "component" $component) }}
          valueFrom:
            secretKeyRef:
              name: {{ include "varroa.natsMemberSecret" $member }}
              key: {{ $component }}-password
        {{- end }}
        {{- end }}
        {{- if .Values.recordStore.enabled }}
        - name: RECORDER_PASSWORD
          valueFrom:
            secretKeyRef:
              name: varroa-nats-creds
              key: recorder-password
        {{- end }}
        {{- if include "varroa.dashboard" . }}
        # The BFF's user; the operator has created bff-password with the others since the first install.
        - name: DASHBOARD_PASSWORD
          valueFrom:
            secretKeyRef:
              name: varroa-nats-creds
              key: bff-password
        {{- end }}
      # The monitoring port binds 127.0.0.1, which the kubelet cannot reach: the probes ask from inside the pod
      # (busybox wget of the alpine image; it fails on an HTTP error status).
      startupProbe:
        exec:
          command: ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8222/healthz"]
        periodSeconds: 5
        timeoutSeconds: 3
        failureThreshold: 60
      readinessProbe:
        exec:
          command: ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8222/healthz?js-enabled-only=true"]
        periodSeconds: 5
        timeoutSeconds: 3
      livenessProbe:
        exec:
          command: ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8222/healthz?js-enabled-only=true"]
        periodSeconds: 10
        timeoutSeconds: 3
        failureThreshold: 6
      resources:
        {{- toYaml $n.resources | nindent 8 }}
      securityContext:
        {{- include "varroa.containerSecurityContext" . | nindent 8 }}
      volumeMounts:
        - name: config
          mountPath: /etc/nats/config
          readOnly: true
        # ca.key stays in the Secret: the servers get the certificate, its key and the CA certificate only.
        - name: tls
          mountPath: /etc/nats/tls
          readOnly: true
        - name: data
          mountPath: /data
        - name: tmp
          mountPath: /tmp
  volumes:
    - name: config
      configMap:
        name: varroa-nats
    # Created by the operator at its first start: the pods wait for it.
    - name: tls
      secret:
        secretName: varroa-nats-tls
        defaultMode: 288
        items:
          - key: tls.crt
            path: tls.crt
          - key: tls.key
            path: tls.key
          - key: ca.crt
            path: ca.crt
    - name: tmp
      emptyDir: {}
{{- end -}}
