#!/usr/bin/env bash
# The node's certificates, made with openssl into one folder: a CA, the API server's and the kubelet's serving
# certificates, a client certificate and kubeconfig per component, the ServiceAccount signing key pair.
# usage: pki.sh DIR NODE_NAME NODE_IP API_SERVER_URL. Keeps what exists (idempotent).
set -euo pipefail
dir=$1 node=$2 node_ip=$3 server=$4
mkdir -p "$dir"
cd "$dir"
openssl_quiet() { openssl "$@" 2>/dev/null; }
[[ -f ca.key ]] || { openssl_quiet genrsa -out ca.key 2048; openssl_quiet req -x509 -new -key ca.key -subj /CN=varroa-node-ca -days 3650 -out ca.crt; }
[[ -f sa.key ]] || { openssl_quiet genrsa -out sa.key 2048; openssl_quiet rsa -in sa.key -pubout -out sa.pub; }

# certificate NAME SUBJECT [SUBJECT_ALT_NAMES]: with SANs a serving and client certificate, else a client one
certificate() {
  local name=$1 subject=$2 sans=${3:-}
  [[ -f $name.crt ]] && return 0
  openssl_quiet genrsa -out "$name.key" 2048
  openssl_quiet req -new -key "$name.key" -subj "$subject" -out "$name.csr"
  if [[ -n $sans ]]; then
    printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth,clientAuth\n' "$sans" > "$name.ext"
  else
    printf 'extendedKeyUsage=clientAuth\n' > "$name.ext"
  fi
  openssl_quiet x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -extfile "$name.ext" -out "$name.crt"
  rm -f "$name.csr" "$name.ext"
}
certificate apiserver /CN=kube-apiserver \
  "DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:10.0.0.1,IP:$node_ip"
certificate apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client"
certificate admin "/O=system:masters/CN=varroa-node-admin"
certificate controller-manager /CN=system:kube-controller-manager
certificate scheduler /CN=system:kube-scheduler
certificate kube-proxy /CN=system:kube-proxy
certificate kubelet "/O=system:nodes/CN=system:node:$node"
certificate kubelet-serving "/CN=$node" "DNS:$node,IP:$node_ip,IP:127.0.0.1"

for user in admin controller-manager scheduler kube-proxy kubelet; do
  cat > "$user.kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: varroa-node
  cluster: {server: "$server", certificate-authority: $dir/ca.crt}
users:
- name: $user
  user: {client-certificate: $dir/$user.crt, client-key: $dir/$user.key}
contexts:
- name: varroa-node
  context: {cluster: varroa-node, user: $user}
current-context: varroa-node
YAML
done
cp admin.kubeconfig ../admin.kubeconfig
