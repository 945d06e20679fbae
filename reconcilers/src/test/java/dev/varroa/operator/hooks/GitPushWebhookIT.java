package dev.varroa.operator.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.hooks.ProviderDeliveries.Delivery;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServer;
import dev.varroa.testfixtures.git.GitServerExtension;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GitHub-signed push to the receiver makes an hourly ComposedBundle render the moved branch within
 * seconds, against a real API server and a real Git server; a forged one changes nothing.
 */
@WithKubeApiServer
@ExtendWith(GitServerExtension.class)
class GitPushWebhookIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  /** Far below the bundle's 1h interval: only the push can explain a re-render this fast. */
  private static final Duration PUSH_DEADLINE = Duration.ofSeconds(20);
  private static final String NAMESPACE = "hooks";
  private static final String OPERATOR_NAMESPACE = "varroa-system";
  private static final String SECRET_NAME = "varroa-webhook";
  private static final String SECRET = "a-shared-webhook-secret";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static VarroaOperator operator;
  private static int port;

  @BeforeAll
  static void startOperator(KubeApiServer kube, @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    for (String namespace : new String[] {NAMESPACE, OPERATOR_NAMESPACE}) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    writeSecret(client, SECRET);
    StarterProfile.installGitOnly(client);
    operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null);
    // Read on every delivery here, so the rotation test needs no wait; production re-reads every 10 s.
    port = operator.serveWebhooks(0, new KubernetesWebhookSecret(client, OPERATOR_NAMESPACE, SECRET_NAME,
        WebhookSettings.DEFAULT_SECRET_KEY, Duration.ZERO, Clock.systemUTC()));
    operator.start();
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
  }

  private static void writeSecret(KubernetesClient client, String value) {
    client.resource(new SecretBuilder().withNewMetadata().withName(SECRET_NAME).withNamespace(OPERATOR_NAMESPACE)
        .endMetadata().withStringData(Map.of(WebhookSettings.DEFAULT_SECRET_KEY, value)).build()).serverSideApply();
  }

  private static void createBundle(KubernetesClient client, String name, String url) {
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: %s, namespace: %s}
        spec:
          interval: 1h
          versionProfileRef: {name: lts}
          inputs:
            - git: {url: "%s", ref: {branch: main}}
        """.formatted(name, NAMESPACE, url), GenericKubernetesResource.class)).create();
  }

  private static ComposedBundle bundle(KubernetesClient client, String name) {
    return client.resources(ComposedBundle.class).inNamespace(NAMESPACE).withName(name).get();
  }

  private static String digest(KubernetesClient client, String name) {
    ComposedBundle bundle = bundle(client, name);
    return bundle == null || bundle.getStatus() == null || bundle.getStatus().artifact == null ? null
        : bundle.getStatus().artifact.digest;
  }

  private static String readyDigest(KubernetesClient client, String name) {
    await().atMost(DEADLINE).until(() -> {
      ComposedBundle bundle = bundle(client, name);
      return bundle != null && bundle.getStatus() != null && bundle.getStatus().condition(Condition.READY)
          .filter(c -> c.status == Condition.Status.True).isPresent();
    });
    return digest(client, name);
  }

  private static HttpResponse<String> post(Delivery delivery) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hooks/git"))
        .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.body()));
    delivery.headers().forEach((name, values) -> values.forEach(value -> request.header(name, value)));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The repository as a push names it: the ssh form (no port, no .git) as clone and ssh URL, the web URL over http. */
  private static String pushBody(GitRepository repo, String ref) {
    URI http = URI.create(repo.httpUrl());
    String path = http.getPath().replaceAll("\\.git$", "");
    return ProviderDeliveries.githubPushBody(ref, "ssh://git@" + http.getHost() + path,
        "git@" + http.getHost() + ":" + path.substring(1), "http://" + http.getAuthority() + path);
  }

  private static long pushEvents(KubernetesClient client, String name) {
    return client.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> ReconcilerPushTargets.PUSH_RECEIVED.equals(e.getReason())).count();
  }

  @Test
  void aSignedPushRendersTheMovedBranchOfAnHourlyBundleWithinSecondsAndAForgedOneChangesNothing(KubeApiServer kube,
      GitServer git) throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team-a");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: before\n"), "one");
    createBundle(client, "team-a", repo.httpUrl());
    String before = readyDigest(client, "team-a");
    String moved = repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: after\n"), "two");

    HttpResponse<String> forged = post(ProviderDeliveries.github("push", pushBody(repo, "refs/heads/main"), "guessed"));
    assertThat(forged.statusCode()).isEqualTo(401);
    // A bounded look, not a wait for something to happen: the forged push must not have re-checked anything.
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
        .until(() -> before.equals(digest(client, "team-a")) && pushEvents(client, "team-a") == 0);

    HttpResponse<String> signed = post(ProviderDeliveries.github("push", pushBody(repo, "refs/heads/main"), SECRET));

    assertThat(signed.statusCode()).as(signed.body()).isEqualTo(202);
    assertThat(signed.body()).contains("\"composedBundles\":1").doesNotContain("team-a");
    await().atMost(PUSH_DEADLINE).until(() -> !before.equals(digest(client, "team-a")));
    assertThat(bundle(client, "team-a").getStatus().inputs.get(0).revision).isEqualTo("main@sha1:" + moved);
    await().atMost(DEADLINE).until(() -> pushEvents(client, "team-a") == 1);
  }

  @Test
  void aPushToABranchNoBundleFollowsRechecksNothing(KubeApiServer kube, GitServer git) throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team-b");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: b\n"), "one");
    createBundle(client, "team-b", repo.httpUrl());
    readyDigest(client, "team-b");

    HttpResponse<String> response = post(ProviderDeliveries.github("push", pushBody(repo, "refs/heads/feature"), SECRET));

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(response.body()).contains("\"composedBundles\":0");
  }

  @Test
  void aRotatedSecretIsUsedWithoutARestart(KubeApiServer kube, GitServer git) throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team-c");
    String body = pushBody(repo, "refs/heads/main");
    writeSecret(client, "the-rotated-secret");
    try {
      assertThat(post(ProviderDeliveries.github("push", body, SECRET)).statusCode()).isEqualTo(401);
      assertThat(post(ProviderDeliveries.github("push", body, "the-rotated-secret")).statusCode()).isEqualTo(202);
    } finally {
      writeSecret(client, SECRET);
    }
  }
}
