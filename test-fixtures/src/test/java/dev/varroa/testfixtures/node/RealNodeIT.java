package dev.varroa.testfixtures.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import javax.naming.directory.Attribute;
import javax.naming.directory.InitialDirContext;
import java.time.Duration;
import java.util.Hashtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The node itself: Ready, and a Deployment behind a ClusterIP Service (CoreDNS) answering through kube-proxy. */
@WithRealNode
class RealNodeIT {

  @Test
  void nodeIsReadyWithThePodNetwork(RealNode node) {
    try (KubernetesClient client = node.adminClient()) {
      Node varroaNode = client.nodes().withName("varroa-node").get();
      assertThat(varroaNode.getStatus().getConditions())
          .filteredOn(c -> c.getType().equals("Ready")).extracting(NodeCondition::getStatus).containsExactly("True");
      assertThat(varroaNode.getStatus().getAddresses()).anySatisfy(a -> assertThat(a.getAddress()).isEqualTo(node.nodeIp()));
    }
  }

  @Test
  void clusterDnsAnswersThroughItsServiceAddress(RealNode node) {
    // a query from this machine to the kube-dns ClusterIP crosses kube-proxy's rules, the bridge and the CoreDNS pod
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
        assertThat(lookup("10.0.0.10", "kubernetes.default.svc.cluster.local")).isEqualTo("10.0.0.1"));
  }

  private static String lookup(String server, String name) throws Exception {
    Hashtable<String, String> env = new Hashtable<>();
    env.put("java.naming.factory.initial", "com.sun.jndi.dns.DnsContextFactory");
    env.put("java.naming.provider.url", "dns://" + server);
    env.put("com.sun.jndi.dns.timeout.initial", "2000");
    env.put("com.sun.jndi.dns.timeout.retries", "1");
    InitialDirContext dns = new InitialDirContext(env);
    try {
      Attribute a = dns.getAttributes(name, new String[] {"A"}).get("A");
      return a == null ? null : (String) a.get();
    } finally {
      dns.close();
    }
  }
}
