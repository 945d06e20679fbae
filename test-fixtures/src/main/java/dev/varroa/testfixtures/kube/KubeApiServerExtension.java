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
