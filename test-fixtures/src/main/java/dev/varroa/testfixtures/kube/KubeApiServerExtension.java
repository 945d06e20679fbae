package dev.varroa.testfixtures.kube;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import dev.varroa.testfixtures.ProjectLayout;

/**
 * JUnit 5 extension behind {@link WithKubeApiServer}: one real API server per test class, with
 * Varroa's CRDs from chart/crds/ installed, always stopped. Tests take a {@link KubeApiServer}.
 */
public final class KubeApiServerExtension extends ClassScopedFixtureExtension<KubeApiServer> {
  public KubeApiServerExtension() {
    super(KubeApiServer.class, "kube-apiserver");
  }

  private KubeApiServerExtension(String name) {
    super(KubeApiServer.class, "kube-apiserver", name);
  }

  /**
   * Another API server and etcd for the same test class (a member cluster next to the core): a static
   * {@code @RegisterExtension} field, read with {@link #server()}; test parameters still get the first one.
   */
  public static KubeApiServerExtension another(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("KubeApiServerExtension.another: give the second API server a name, e.g. \"member\"");
    }
    return new KubeApiServerExtension(name);
  }

  @Override
  protected Running<KubeApiServer> start() {
    KubeApiServer server = KubeApiServer.start();
    try {
      server.installCrds(ProjectLayout.root().resolve("chart/crds"));
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return new Running<>() {
      @Override
      public KubeApiServer value() {
        return server;
      }

      @Override
      public void close() {
        server.close();
      }
    };
  }

  /** The server started for the current test class, for a static {@code @RegisterExtension} field. */
  public KubeApiServer server() {
    return current();
  }
}
