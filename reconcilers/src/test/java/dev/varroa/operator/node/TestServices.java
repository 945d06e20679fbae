package dev.varroa.operator.node;

import dev.varroa.testfixtures.ProjectLayout;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * The services the chart does not deploy, from test-fixtures/node/manifests/ on their test images: PostgreSQL (the
 * record store, external mode), the OpenID provider (instead of Dex) and an S3 server (the blob store), and the
 * dashboard at a fixed ClusterIP, which this machine's browser and the pods reach alike.
 */
final class TestServices {
  static final String POSTGRES_SECRET = "varroa-test-recordstore";
  static final String POSTGRES_READER_SECRET = "varroa-test-recordstore-reader";
  static final String S3_SECRET = "varroa-test-s3";
  static final String OIDC_CLIENT_SECRET = "varroa-test-oidc-client";
  static final String BUCKET = "varroa-records";
  /** The user of the test OpenID provider in test-fixtures/node/manifests/oidc.yaml; its ID tokens name it in sub. */
  static final Login TEST_LOGIN = new Login("alice", "alice-password");
  /** The fixed ClusterIPs of oidc.yaml and dashboard-access.yaml, in the node's service range. */
  static final String DASHBOARD_URL = "http://10.0.0.80";
  static final String ISSUER = "http://10.0.0.98:9998/";

  /** Who logs in to the dashboard: the one user the test OpenID provider knows, who reads everything. */
  record Login(String user, String password) {}

  private TestServices() {}

  static void apply(KubernetesClient client, NodeImages images, String namespace, Login login) throws IOException {
    for (String name : List.of("postgres", "oidc", "s3", "dashboard-access")) {
      String yaml = Files.readString(ProjectLayout.root().resolve("test-fixtures/node/manifests/" + name + ".yaml"))
          .replace("REGISTRY", images.registry()).replace("NAMESPACE", namespace)
          // the provider's one user, as the manifest names it
          .replace(TEST_LOGIN.password(), login.password()).replace(TEST_LOGIN.user(), login.user());
      for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
        client.resource(object).inNamespace(namespace).serverSideApply();
      }
    }
  }

  /** The user reads everything in the dashboard, as the played demo's user does (docs/identity.md). */
  static void grantReader(KubernetesClient client, Login login) {
    String yaml = """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: node-e2e-reader}
        spec:
          rules:
            - verbs: [get, list, watch]
              resources: ["*"]
        ---
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRoleBinding
        metadata: {name: node-e2e-reads-everything}
        spec:
          roleRef: {name: node-e2e-reader}
          subjects: [{kind: User, name: %s}]
        """.formatted(login.user());
    for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(object).serverSideApply();
    }
  }

  /** The chart values that point the release at these services. */
  static List<String> chartValues(String namespace) {
    return List.of(
        "recordStore.enabled=true",
        "recordStore.postgres.mode=external",
        "recordStore.postgres.external.existingSecret=" + POSTGRES_SECRET,
        "dashboard.recordStore.existingSecret=" + POSTGRES_READER_SECRET,
        "recordStore.blobs.mode=s3",
        "recordStore.blobs.s3.existingSecret=" + S3_SECRET,
        "recordStore.blobs.s3.url=http://varroa-test-s3." + namespace + ".svc:8080/" + BUCKET,
        // Dex cannot be built here: the dashboard logs in through the test OpenID provider instead
        "dex.enabled=false",
        "dashboard.oidc.issuer=" + ISSUER,
        "dashboard.oidc.clientId=web",
        "dashboard.oidc.existingSecret=" + OIDC_CLIENT_SECRET,
        "dashboard.oidc.cliClientId=native",
        // the example provider puts email in userinfo only, not in the ID token the BFF reads the user from
        "dashboard.oidc.usernameClaim=sub",
        // the address a browser on this machine reaches (dashboard-access.yaml; docs/testing.md)
        "dashboard.publicUrl=" + DASHBOARD_URL,
        // the policies' egress to services that are pods of this cluster: the pod network
        "networkPolicy.oidcIssuerEgress.cidrs={10.244.0.0/16}",
        "networkPolicy.recordStorePostgresEgress.cidrs={10.244.0.0/16}",
        "networkPolicy.recordStoreBlobEgress.cidrs={10.244.0.0/16}");
  }

  /** A Service's ClusterIP, which this machine reaches through kube-proxy's rules. */
  static String clusterIp(KubernetesClient client, String namespace, String service) {
    Service found = client.services().inNamespace(namespace).withName(service).get();
    if (found == null) {
      throw new IllegalStateException("no Service " + namespace + "/" + service);
    }
    return found.getSpec().getClusterIP();
  }
}
