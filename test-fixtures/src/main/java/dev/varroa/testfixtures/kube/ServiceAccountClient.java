package dev.varroa.testfixtures.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A client that acts as a ServiceAccount through impersonation (the admin kubeconfig may impersonate
 * anyone), so the API server's RBAC authorizer judges every request as it would the installed pod's.
 * Every 403 it receives is recorded: a test waits for one instead of for a time to pass.
 */
public final class ServiceAccountClient implements Interceptor {
  private final List<String> forbidden = new CopyOnWriteArrayList<>();
  private final KubernetesClient client;
  private final String user;

  public ServiceAccountClient(KubeApiServer server, String namespace, String serviceAccount) {
    this.user = "system:serviceaccount:" + namespace + ":" + serviceAccount;
    Config config = Config.fromKubeconfig(server.kubeconfigYaml());
    config.setImpersonateUsername(user);
    // The groups the API server gives every ServiceAccount token.
    config.setImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + namespace,
        "system:authenticated");
    this.client = new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("varroa-forbidden-recorder", this)).build();
  }

  public KubernetesClient client() {
    return client;
  }

  public String user() {
    return user;
  }

  /** "METHOD /path?query" of every request the API server refused with 403, oldest first. */
  public List<String> forbidden() {
    return List.copyOf(forbidden);
  }

  @Override
  public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    if (response.code() == 403) {
      String query = request.uri().getQuery();
      forbidden.add(request.method() + " " + request.uri().getPath() + (query == null ? "" : "?" + query));
    }
  }
}
