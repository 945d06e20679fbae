package dev.varroa.operator.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.AccessPolicy;
import dev.varroa.protocol.bus.v1.AccessRule;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.api.KeyValueEntry;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** VarroaRoles and VarroaRoleBindings reach the BFF's access bucket and follow every change, on real servers. */
@WithKubeApiServer
class AccessPolicyPublisherIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void publishesEveryRoleAndBindingAndFollowsChanges(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: team-a-reader}
        spec:
          rules:
            - verbs: [get, list, watch]
              resources: [controllers, activity]
              clusters: [eu-1]
              namespaces: [team-a]
              controllerSelector: {matchLabels: {tier: prod}}
        """, VarroaRole.class)).create();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRoleBinding
        metadata: {name: alice-reads-team-a}
        spec:
          roleRef: {name: team-a-reader}
          subjects: [{kind: User, name: alice@example.com}, {kind: Group, name: sre}]
        """, VarroaRoleBinding.class)).create();

    try (Connection operatorBus = NATS.server().connect(); Connection bff = NATS.server().connect();
        AccessPolicyPublisher publisher = new AccessPolicyPublisher(() -> operatorBus, client, Clock.systemUTC())) {
      publisher.start();
      AccessPolicy policy = await().atMost(DEADLINE).ignoreExceptions()
          .until(() -> stored(bff), p -> p.isPresent() && p.get().getBindingsCount() == 1).orElseThrow();
      assertThat(policy.getRolesList()).singleElement().satisfies(role -> {
        assertThat(role.getName()).isEqualTo("team-a-reader");
        AccessRule rule = role.getRules(0);
        assertThat(rule.getVerbsList()).containsExactly("get", "list", "watch");
        assertThat(rule.getResourcesList()).containsExactly("controllers", "activity");
        assertThat(rule.getClustersList()).containsExactly("eu-1");
        assertThat(rule.getNamespacesList()).containsExactly("team-a");
        assertThat(rule.getControllerLabelsMap()).containsExactly(java.util.Map.entry("tier", "prod"));
      });
      assertThat(policy.getBindings(0).getSubjectsList())
          .extracting(s -> s.getKind() + ":" + s.getName())
          .containsExactly("User:alice@example.com", "Group:sre");

      client.resources(VarroaRoleBinding.class).withName("alice-reads-team-a").delete();
      await().atMost(DEADLINE).ignoreExceptions()
          .until(() -> stored(bff), p -> p.isPresent() && p.get().getBindingsCount() == 0);
    }
  }

  private static Optional<AccessPolicy> stored(Connection bff) throws Exception {
    KeyValueEntry entry = bff.keyValue(BusNames.ACCESS_BUCKET).get(BusNames.ACCESS_POLICY_KEY);
    return entry == null || entry.getValue() == null ? Optional.empty()
        : Optional.of(AccessPolicy.parseFrom(entry.getValue()));
  }
}
