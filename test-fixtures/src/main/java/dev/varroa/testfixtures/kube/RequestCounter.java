package dev.varroa.testfixtures.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A client whose every request is recorded and sorted into GETs of one object, LISTs, WATCHes and
 * writes, so a test or a benchmark can prove what a component read from the API server and what it
 * took from its caches.
 */
public final class RequestCounter implements Interceptor {
  /** How a request used the API server. */
  public enum Kind { GET, LIST, WATCH, WRITE }

  /** One request: its kind, method and path (with the query for a LIST or WATCH). */
  public record Request(Kind kind, String method, String path) {
    @Override
    public String toString() {
      return kind + " " + method + " " + path;
    }
  }

  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  /** A new client to the server that reports its requests here. */
  public KubernetesClient client(KubeApiServer server) {
    return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.kubeconfigYaml()))
        .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("varroa-request-counter", this))
        .build();
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    URI uri = request.uri();
    requests.add(new Request(kind(request.method(), uri), request.method(),
        uri.getPath() + (uri.getQuery() == null ? "" : "?" + uri.getQuery())));
  }

  static Kind kind(String method, URI uri) {
    if (WRITES.contains(method)) {
      return Kind.WRITE;
    }
    String query = uri.getQuery() == null ? "" : uri.getQuery();
    if (query.contains("watch=true")) {
      return Kind.WATCH;
    }
    return namesOneObject(uri.getPath()) ? Kind.GET : Kind.LIST;
  }

  /** /api/v1/[namespaces/NS/]RESOURCE/NAME[/SUB] or /apis/GROUP/VERSION/... names one object; a collection does not. */
  static boolean namesOneObject(String path) {
    String[] parts = path.replaceAll("^/+", "").split("/");
    int start = parts.length > 0 && "api".equals(parts[0]) ? 2 : 3;
    int rest = parts.length - start;
    if (rest <= 0) {
      return false;
    }
    if ("namespaces".equals(parts[start])) {
      // namespaces/NS is one Namespace; namespaces/NS/RESOURCE a collection; namespaces/NS/RESOURCE/NAME one object
      return rest == 2 || rest >= 4;
    }
    return rest >= 2;
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  public List<Request> of(Kind kind) {
    return requests.stream().filter(r -> r.kind() == kind).toList();
  }

  public void reset() {
    requests.clear();
  }
}
