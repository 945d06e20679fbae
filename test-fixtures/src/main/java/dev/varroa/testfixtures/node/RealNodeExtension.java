package dev.varroa.testfixtures.node;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension behind {@link WithRealNode}: one real node for the whole test run, not one per class (it takes
 * seconds to come up and its images stay warm). A node already running (`make node-up`) is used and left running;
 * one this extension started is taken down, leaving nothing on the machine, when the run ends.
 */
public final class RealNodeExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RealNodeExtension.class);

  /** The node in the run's root store, so JUnit closes it once, after the last class. */
  private record StartedNode(RealNode node, boolean ours) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      if (ours) {
        RealNode.down();
      }
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    node(context);
  }

  private static RealNode node(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(StartedNode.class, key -> {
      boolean ours = !RealNode.running();
      return new StartedNode(RealNode.up(), ours);
    }, StartedNode.class).node();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == RealNode.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return node(context);
  }
}
