{{/*
Render-time rules that a schema cannot say well: each fails with the value to change and how.
values.schema.json refuses unknown values and wrong types before these run.
*/}}

{{/* An IPv4 address as a number, or "" when it is not one. */}}
{{- define "varroa.ipv4Number" -}}
{{- if regexMatch "^[0-9]{1,3}(\\.[0-9]{1,3}){3}$" . -}}
{{- $n := 0 -}}
{{- range splitList "." . -}}
{{- $n = add (mul $n 256) (atoi .) -}}
{{- end -}}
{{- $n -}}
{{- end -}}
{{- end -}}

{{/* "true" when the IPv4 address .ip lies in one of the IPv4 CIDRs .cidrs. */}}
{{- define "varroa.ipv4Covered" -}}
{{- $ip := include "varroa.ipv4Number" .ip -}}
{{- $covered := false -}}
{{- range .cidrs -}}
{{- $parts := splitList "/" . -}}
{{- $net := include "varroa.ipv4Number" (first $parts) -}}
{{- if and $ip $net (eq (len $parts) 2) -}}
{{- $block := 1 -}}
{{- range until (sub 32 (atoi (last $parts)) | int) -}}
{{- $block = mul $block 2 -}}
{{- end -}}
{{- if eq (div (atoi $ip) $block) (div (atoi $net) $block) -}}
{{- $covered = true -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $covered }}true{{ end -}}
{{- end -}}

{{/* The entries of bus.url: a comma-separated list of tls://host:port. */}}
{{- define "varroa.busUrls" -}}
{{- $urls := list -}}
{{- range splitList "," .Values.bus.url -}}
{{- if trim . -}}
{{- $urls = append $urls (trim .) -}}
{{- end -}}
{{- end -}}
{{- toJson $urls -}}
{{- end -}}

{{- define "varroa.validate" -}}
{{- $v := .Values -}}
{{- $hive := include "varroa.hive" . -}}
{{- $np := $v.networkPolicy -}}

{{- $name := $v.cluster.name | default "" -}}
{{- if not (and (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" $name) (le (len $name) 63)) -}}
{{- fail (printf "cluster.name %q is not a DNS-1123 label: use at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit, unique across the deployment (e.g. --set cluster.name=member-eu1)" $name) -}}
{{- end -}}

{{- if $hive -}}
{{- if not (trim ($v.bus.url | default "")) -}}
{{- fail "hive mode needs bus.url: set it to the core's NATS endpoint, e.g. --set bus.url=tls://nats.example.com:4222 (a comma-separated list of tls://host:port for NodePort node addresses)" -}}
{{- end -}}
{{- $urls := include "varroa.busUrls" . | fromJsonArray -}}
{{- range $urls -}}
{{- if not (regexMatch "^tls://[A-Za-z0-9.-]+:[0-9]{1,5}$" .) -}}
{{- fail (printf "bus.url entry %q is not tls://host:port: the core NATS endpoint is TLS-only; write e.g. tls://nats.example.com:4222, several separated by commas" .) -}}
{{- end -}}
{{- end -}}
{{- if $v.nats.external.enabled -}}
{{- fail "nats.external.enabled is a core setting: a member (hive mode) runs no NATS; set it on the core's release and remove it here" -}}
{{- end -}}
{{- if $v.nats.members -}}
{{- fail "nats.members is a core setting: the core's NATS makes each member's users and its Secret varroa-nats-creds-<member>; list this member there and remove nats.members here (a member connects as operator-<cluster.name> and gateway-<cluster.name> with the passwords copied into varroa-nats-creds)" -}}
{{- end -}}
{{- if $v.dex.enabled -}}
{{- fail "dex.enabled is true in hive mode: a member runs no Dex and uses the core's identity provider; set dex.enabled=false (values-hive.yaml does)" -}}
{{- end -}}
{{- if $np.enabled -}}
{{- if empty $np.coreNatsEgress.cidrs -}}
{{- fail "networkPolicy.enabled is true in hive mode but networkPolicy.coreNatsEgress.cidrs is empty: list the core NATS endpoint's addresses (each address in bus.url), e.g. --set 'networkPolicy.coreNatsEgress.cidrs={203.0.113.10/32}' (network policies are on by default; --set networkPolicy.enabled=false renders none)" -}}
{{- end -}}
{{- range $urls -}}
{{- $host := regexReplaceAll "^tls://(.*):[0-9]+$" . "${1}" -}}
{{- if and (include "varroa.ipv4Number" $host) (not (include "varroa.ipv4Covered" (dict "ip" $host "cidrs" $np.coreNatsEgress.cidrs))) -}}
{{- fail (printf "bus.url lists the node address %s, which networkPolicy.coreNatsEgress.cidrs does not cover: add %s/32 to it (and to nats.external.ipSANs on the core, so the NATS certificate carries it)" $host $host) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- else -}}
{{- if trim ($v.bus.url | default "") -}}
{{- fail "bus.url is a hive-mode setting: full mode runs its own NATS (varroa-nats); remove bus.url, or install a member with -f values-hive.yaml" -}}
{{- end -}}
{{- if eq (int $v.nats.replicas) 2 -}}
{{- fail "nats.replicas is 2: a JetStream cluster needs a majority to stay up, so two servers fail as soon as one does; use 1, or 3 or more" -}}
{{- end -}}
{{- $ext := $v.nats.external -}}
{{- $members := $v.nats.members | default list -}}
{{- range $members -}}
{{- if not (and (kindIs "string" .) (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" .) (le (len .) 63)) -}}
{{- fail (printf "nats.members lists %q, which is not a DNS-1123 label: list each member's cluster.name exactly as it is set on the member (at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit), e.g. --set 'nats.members={member-eu1}'" (toString .)) -}}
{{- end -}}
{{- if eq . $v.cluster.name -}}
{{- fail (printf "nats.members lists %s, this cluster's own cluster.name: the core connects with its own users; list only the members' names (each member's cluster.name)" .) -}}
{{- end -}}
{{- end -}}
{{- if ne (len $members) (len ($members | uniq)) -}}
{{- fail (printf "nats.members lists a name twice (%s): cluster.name is unique across the deployment, so each member gets one NATS identity; remove the duplicate" (join ", " $members)) -}}
{{- end -}}
{{- if and (not $ext.enabled) $members -}}
{{- fail "nats.members is set but nats.external.enabled is false: members reach this NATS only through the external endpoint; set nats.external.enabled=true (with nats.external.host) or empty nats.members" -}}
{{- end -}}
{{- range ($ext.memberClusters | default list) -}}
{{- if and $ext.enabled (not (has . $members)) (ne . $v.cluster.name) -}}
{{- fail (printf "nats.external.memberClusters lists %s but nats.members does not: members now get their own NATS users, which act for their own cluster only; add it with --set 'nats.members={%s}', copy the Secret varroa-nats-creds-%s into the member's varroa-nats-creds, upgrade the member, then remove it from nats.external.memberClusters (docs/upgrade-notes.md)" . . .) -}}
{{- end -}}
{{- end -}}
{{- if and (not $ext.enabled) $ext.memberClusters -}}
{{- fail "nats.external.memberClusters is set but nats.external.enabled is false: members reach this NATS only through the external endpoint; set nats.external.enabled=true (with nats.external.host) or empty the list" -}}
{{- end -}}
{{- if $ext.enabled -}}
{{- if and $np.enabled (empty $ext.allowedCIDRs) -}}
{{- fail "nats.external.enabled with networkPolicy.enabled needs nats.external.allowedCIDRs: list the source addresses of each member, e.g. --set 'nats.external.allowedCIDRs={198.51.100.0/24}' (with externalTrafficPolicy: Cluster the source is a node of this cluster: include the node range)" -}}
{{- end -}}
{{- if has $v.cluster.name ($ext.memberClusters | default list) -}}
{{- fail (printf "nats.external.memberClusters lists %s, this cluster's own cluster.name: list only the members' names (each member's cluster.name)" $v.cluster.name) -}}
{{- end -}}
{{- if and (eq $ext.serviceType "NodePort") (eq $ext.externalTrafficPolicy "Local") (not (dig "spec" "nodeSelector" dict ($v.nats.podTemplate.merge | default dict))) -}}
{{- fail "nats.external.serviceType NodePort with externalTrafficPolicy Local answers only on nodes that run a NATS pod, and members list those node addresses in bus.url: pin the NATS pods to them with nats.podTemplate.merge.spec.nodeSelector, e.g. --set 'nats.podTemplate.merge.spec.nodeSelector.varroa\\.dev/nats=true' (or use externalTrafficPolicy Cluster)" -}}
{{- end -}}
{{- if and (eq $ext.serviceType "NodePort") (empty $ext.ipSANs) -}}
{{- fail "nats.external.serviceType is NodePort but nats.external.ipSANs is empty: members connect to node addresses, which the NATS certificate must carry; list each node address members use (the ones in their bus.url), e.g. --set 'nats.external.ipSANs={192.0.2.11,192.0.2.12}'" -}}
{{- end -}}
{{- if and (not $ext.host) (empty $ext.ipSANs) -}}
{{- fail "nats.external.enabled needs nats.external.host: set the DNS name members connect to (--set nats.external.host=nats.example.com), or list the addresses in nats.external.ipSANs, so the NATS certificate carries the name members verify" -}}
{{- end -}}
{{- end -}}
{{- if $v.dex.enabled -}}
{{- if not ($v.dex.config.issuer | default "") -}}
{{- fail "dex.enabled needs dex.config.issuer: set the URL browsers and controllers reach Dex at, e.g. --set dex.config.issuer=https://login.example.com/dex" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- if $v.jenkinsLogin.clientSecret -}}
{{- fail "jenkinsLogin.clientSecret is retired: Jenkins signs in as a public OIDC client with PKCE and holds no secret, since every tenant's Jenkins admin could read it (docs/identity.md); fix: remove jenkinsLogin.clientSecret, make the client public at your provider (the chart's Dex registers it so itself), list the Jenkins callbacks in jenkinsLogin.redirectURIs, and delete the old Secret and the client's old secret" -}}
{{- end -}}

{{- $rs := $v.recordStore -}}
{{- $me := $rs.postgres.memberEndpoint -}}
{{- if $rs.enabled -}}
{{- if and $hive (ne $rs.postgres.mode "external") -}}
{{- fail (printf "recordStore.postgres.mode is %s in hive mode: a member renders no database and no recorder (the core's recorder serves it); set --set recordStore.postgres.mode=external" $rs.postgres.mode) -}}
{{- end -}}
{{- if and (not $hive) (eq $rs.postgres.mode "cnpg") (not (.Capabilities.APIVersions.Has "postgresql.cnpg.io/v1/Cluster")) -}}
{{- fail "recordStore.postgres.mode is cnpg but the cluster has no CloudNativePG API (postgresql.cnpg.io/v1 Cluster): install the CloudNativePG operator first (https://cloudnative-pg.io), or run your own PostgreSQL with --set recordStore.postgres.mode=external and recordStore.postgres.external.existingSecret; helm template needs --api-versions postgresql.cnpg.io/v1/Cluster" -}}
{{- end -}}
{{- if and (not $hive) (eq $rs.postgres.mode "external") -}}
{{- if not $rs.postgres.external.existingSecret -}}
{{- fail "recordStore.postgres.mode is external but recordStore.postgres.external.existingSecret is empty: create a Secret with keys dsn (jdbc:postgresql://host:5432/db), username and password, and name it, e.g. --set recordStore.postgres.external.existingSecret=varroa-recordstore-db" -}}
{{- end -}}
{{- if and $np.enabled (empty $np.recordStorePostgresEgress.cidrs) -}}
{{- fail "networkPolicy.enabled with recordStore.postgres.mode external needs networkPolicy.recordStorePostgresEgress.cidrs: list the database's addresses, e.g. --set 'networkPolicy.recordStorePostgresEgress.cidrs={10.20.0.5/32}'" -}}
{{- end -}}
{{- end -}}
{{- $s3 := $rs.blobs.s3 -}}
{{- if eq $rs.blobs.mode "s3" -}}
{{- if not $s3.url -}}
{{- fail "recordStore.blobs.mode is s3 but recordStore.blobs.s3.url is empty: set the object store's endpoint and bucket, path-style, e.g. --set recordStore.blobs.s3.url=https://s3.example.com/varroa-records" -}}
{{- end -}}
{{- if not (regexMatch "^https?://[^/\\s]+/[^/\\s]+(/\\S*)?$" $s3.url) -}}
{{- fail (printf "recordStore.blobs.s3.url %q is not http(s)://host[:port]/bucket[/prefix]: the first path segment names the bucket (path-style), e.g. https://s3.example.com/varroa-records" $s3.url) -}}
{{- end -}}
{{- if not $s3.existingSecret -}}
{{- fail "recordStore.blobs.mode is s3 but recordStore.blobs.s3.existingSecret is empty: create a Secret with keys access-key-id, secret-access-key (and optionally session-token) and name it, e.g. --set recordStore.blobs.s3.existingSecret=varroa-recordstore-s3" -}}
{{- end -}}
{{- end -}}
{{- if and $s3.artifactSecret $s3.artifactSTS -}}
{{- fail "recordStore.blobs.s3.artifactSecret and recordStore.blobs.s3.artifactSTS are both set: cells get their artifact credentials one way; keep the per-pool Secrets (artifactSecret) or the STS issuer (artifactSTS) and empty the other" -}}
{{- end -}}
{{- if $hive -}}
{{- if and (eq $rs.blobs.mode "postgres") (not $rs.postgres.external.existingSecret) -}}
{{- fail "recordStore.blobs.mode is postgres on a member but recordStore.postgres.external.existingSecret is empty: the gateway writes log chunks to the core's database; create a Secret with keys dsn (the core's varroa-recordstore-gateway dsn, with the host of its memberEndpoint), username and password, and name it, e.g. --set recordStore.postgres.external.existingSecret=varroa-recordstore-core; or use --set recordStore.blobs.mode=s3" -}}
{{- end -}}
{{- if $np.enabled -}}
{{- if and (eq $rs.blobs.mode "s3") (empty $np.recordStoreBlobEgress.cidrs) -}}
{{- fail "networkPolicy.enabled on a member with recordStore.blobs.mode s3 needs networkPolicy.recordStoreBlobEgress.cidrs: list the object store's addresses (the host of recordStore.blobs.s3.url), e.g. --set 'networkPolicy.recordStoreBlobEgress.cidrs={203.0.113.20/32}'" -}}
{{- end -}}
{{- if and (eq $rs.blobs.mode "postgres") (empty $np.recordStorePostgresEgress.cidrs) -}}
{{- fail "networkPolicy.enabled on a member with recordStore.blobs.mode postgres needs networkPolicy.recordStorePostgresEgress.cidrs: list the addresses of the core's recordStore.postgres.memberEndpoint, e.g. --set 'networkPolicy.recordStorePostgresEgress.cidrs={203.0.113.30/32}'" -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $me.enabled -}}
{{- if or $hive (not $rs.enabled) (ne $rs.postgres.mode "cnpg") -}}
{{- fail "recordStore.postgres.memberEndpoint.enabled exposes the core's CloudNativePG database: it needs full mode, recordStore.enabled=true and recordStore.postgres.mode=cnpg; remove it here (a member connects through recordStore.postgres.external.existingSecret, an external database is exposed by whoever runs it)" -}}
{{- end -}}
{{- if and $np.enabled (empty $me.allowedCIDRs) -}}
{{- fail "recordStore.postgres.memberEndpoint.enabled with networkPolicy.enabled needs recordStore.postgres.memberEndpoint.allowedCIDRs: list the source addresses of each member, e.g. --set 'recordStore.postgres.memberEndpoint.allowedCIDRs={203.0.113.0/24}' (with externalTrafficPolicy: Cluster the source is a node of this cluster: include the node and pod ranges)" -}}
{{- end -}}
{{- end -}}

{{- if include "varroa.dashboard" . -}}
{{- $d := $v.dashboard -}}
{{- $issuer := include "varroa.dashboardOidcIssuer" . -}}
{{- if not $issuer -}}
{{- fail "dashboard.enabled with dex.enabled=false needs dashboard.oidc.issuer: set the issuer URL of your OpenID provider, e.g. --set dashboard.oidc.issuer=https://login.example.com (and register the client dashboard.oidc.clientId there with the redirect URI <publicUrl>/auth/callback), or turn Dex on, or set dashboard.enabled=false" -}}
{{- end -}}
{{- if not (regexMatch "^https?://[^/\\s]+(/\\S*)?$" $issuer) -}}
{{- fail (printf "dashboard.oidc.issuer %q is not an http(s) URL: use the provider's issuer exactly as its tokens carry it, e.g. https://login.example.com/dex" $issuer) -}}
{{- end -}}
{{- if and $d.ingress.enabled (not $d.ingress.host) -}}
{{- fail "dashboard.ingress.enabled needs dashboard.ingress.host: set the host name browsers use, e.g. --set dashboard.ingress.host=varroa.example.com" -}}
{{- end -}}
{{- if and $d.publicUrl (not (regexMatch "^https?://[^/\\s]+(/\\S*)?$" $d.publicUrl)) -}}
{{- fail (printf "dashboard.publicUrl %q is not an http(s) URL: use the address browsers open, e.g. https://varroa.example.com" $d.publicUrl) -}}
{{- end -}}
{{- if and $v.recordStore.enabled (eq $v.recordStore.postgres.mode "external") (not $d.recordStore.existingSecret) -}}
{{- fail "recordStore.postgres.mode is external but dashboard.recordStore.existingSecret is empty: the BFF reads the record store with its own read-only role; create the role varroa_dashboard (the recorder grants it SELECT), a Secret with keys dsn, username and password for it, and name it, e.g. --set dashboard.recordStore.existingSecret=varroa-recordstore-dashboard; or set dashboard.enabled=false" -}}
{{- end -}}
{{- if and $np.enabled (not $v.dex.enabled) (empty $np.oidcIssuerEgress.cidrs) -}}
{{- fail (printf "networkPolicy.enabled with dex.enabled=false needs networkPolicy.oidcIssuerEgress.cidrs: list the addresses of the OpenID provider at %s, e.g. --set 'networkPolicy.oidcIssuerEgress.cidrs={203.0.113.40/32}'" $issuer) -}}
{{- end -}}
{{- end -}}

{{- if and $v.webhooks.ingress.enabled (not $v.webhooks.ingress.host) -}}
{{- fail "webhooks.ingress.enabled needs webhooks.ingress.host: set the host name Git hosts and registries post to, e.g. --set webhooks.ingress.host=varroa-hooks.example.com" -}}
{{- end -}}

{{- with $v.varroaPluginURL -}}
{{- if not (regexMatch "^https?://[^/\\s]+/.+" .) -}}
{{- fail (printf "varroaPluginURL %q is not an http(s) URL of a file: jenkins-plugin-cli downloads plugins over HTTP only; use e.g. https://files.example.com/varroa/0.1.0/varroa.hpi" .) -}}
{{- end -}}
{{- end -}}

{{- with $v.pluginUpdateCenterDownloadURL -}}
{{- if not (regexMatch "^https?://[^/\\s]+(/.*)?$" .) -}}
{{- fail (printf "pluginUpdateCenterDownloadURL %q is not an http(s) URL: use the core update center's download URL, e.g. https://updates.example.com/download/plugins" .) -}}
{{- end -}}
{{- if not (regexMatch "/download/plugins/?$" .) -}}
{{- fail (printf "pluginUpdateCenterDownloadURL %q does not end in /download/plugins: the operator finds update-center.json beside that folder; use e.g. https://updates.example.com/download/plugins" .) -}}
{{- end -}}
{{- end -}}
{{- end -}}
