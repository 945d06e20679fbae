package dev.varroa.testfixtures.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A client whose every write request (POST, PUT, PATCH, DELETE) is recorded, so a test can prove that
 * a component wrote nothing, or exactly what it wrote.
 */
public final class WriteCounter implements Interceptor {
  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
  private final List<String> writes = new CopyOnWriteArrayList<>();

  /** A new client to the server that reports its writes here. */
  public KubernetesClient client(KubeApiServer server) {
    return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.kubeconfigYaml()))
        .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("varroa-write-counter", this))
        .build();
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (WRITES.contains(request.method())) {
      writes.add(request.method() + " " + request.uri().getPath());
    }
  }

  /** Every write since the last reset, as "METHOD path". */
  public List<String> writes() {
    return List.copyOf(writes);
  }

  public void reset() {
    writes.clear();
  }
}
