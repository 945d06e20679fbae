# Shared by install.sh, start.sh, stop.sh and check.sh: where the NetworkPolicy agent's binary is, its identity,
# its queue, table and metrics port on the real node.
# shellcheck shell=bash
netpol_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NETPOL_CACHE="${VARROA_CACHE:-$HOME/.cache/varroa}/node"
# the binary's name carries the hash of agent/ (its main, go.mod with the pinned v0.8.0, go.sum): an edit rebuilds it
netpol_key() { (cd "$netpol_here/agent" && cat go.mod go.sum ./*.go) | sha256sum | cut -c1-12; }
NETPOL_BIN="$NETPOL_CACHE/bin/kube-network-policies-$(netpol_key)"
# upstream's table name and queue number; the metrics port is an unusual one like the node's others
NETPOL_TABLE=kube-network-policies
NETPOL_QUEUE_ID=100
NETPOL_METRICS_PORT=20262
# the agent's client certificate names this user; rbac.yaml grants it what it reads
NETPOL_USER=system:kube-network-policies

# netpol_identity PKI_DIR SERVER_URL: a client certificate for NETPOL_USER signed by PKI_DIR/ca.{crt,key} and its
# kubeconfig, PKI_DIR/kube-network-policies.kubeconfig. Keeps what exists.
netpol_identity() {
  local dir=$1 server=$2 name=kube-network-policies
  [[ -f $dir/ca.crt && -f $dir/ca.key ]] || { echo "netpol: no CA in $dir (ca.crt, ca.key): run the node's pki.sh first" >&2; return 1; }
  if [[ ! -f $dir/$name.crt ]]; then
    openssl genrsa -out "$dir/$name.key" 2048 2>/dev/null
    openssl req -new -key "$dir/$name.key" -subj "/CN=$NETPOL_USER" -out "$dir/$name.csr" 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' > "$dir/$name.ext"
    openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 3650 \
      -extfile "$dir/$name.ext" -out "$dir/$name.crt" 2>/dev/null
    rm -f "$dir/$name.csr" "$dir/$name.ext"
  fi
  cat > "$dir/$name.kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: varroa-node
  cluster: {server: "$server", certificate-authority: $dir/ca.crt}
users:
- name: $name
  user: {client-certificate: $dir/$name.crt, client-key: $dir/$name.key}
contexts:
- name: varroa-node
  context: {cluster: varroa-node, user: $name}
current-context: varroa-node
YAML
}

# netpol_ready: the agent has bound its queue and written its table (run in the agent's network namespace)
netpol_ready() {
  awk -v q="$NETPOL_QUEUE_ID" '$1 == q { found = 1 } END { exit !found }' /proc/net/netfilter/nfnetlink_queue 2>/dev/null \
    && "$NETPOL_BIN" --list-nftables 2>/dev/null | grep -qx "nftables inet $NETPOL_TABLE"
}
