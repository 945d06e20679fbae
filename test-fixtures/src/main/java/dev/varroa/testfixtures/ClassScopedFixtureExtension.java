package dev.varroa.testfixtures;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts one fixture per test class in {@code beforeAll}, hands its value {@code V} to test
 * parameters, and stops it in {@code afterAll}. The running fixture also sits in the class's
 * extension store, which closes it when the class ends even if {@code afterAll} is never reached.
 */
public abstract class ClassScopedFixtureExtension<V> implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    /** A started fixture: the value tests receive, and how to stop it. */
    public interface Running<V> extends AutoCloseable {
        V value();
    }

    private final Class<V> valueType;
    private final String fixtureName;
    private final String instanceName;
    private volatile V current;

    protected ClassScopedFixtureExtension(Class<V> valueType, String fixtureName) {
        this(valueType, fixtureName, "");
    }

    /**
     * A further fixture of the same kind in one test class (a second API server, as a member cluster's): it has its
     * own store entry under {@code instanceName} and is reached through its extension field only, never as a test
     * parameter, so the class's first fixture keeps that role.
     */
    protected ClassScopedFixtureExtension(Class<V> valueType, String fixtureName, String instanceName) {
        this.valueType = valueType;
        this.fixtureName = fixtureName;
        this.instanceName = instanceName;
    }

    /** Starts the fixture; on failure, leaves whatever the message points to (logs) in place. */
    protected abstract Running<V> start() throws Exception;

    @Override
    public final void beforeAll(ExtensionContext context) throws Exception {
        ExtensionContext.Store store = context.getStore(namespace());
        // A @Nested class finds its enclosing class's fixture through the parent store and reuses it.
        Running<V> running = find(store);
        if (running == null) {
            running = start();
            // JUnit closes AutoCloseable store values when this class context ends, whatever happened.
            store.put(valueType, running);
        }
        current = running.value();
    }

    @Override
    public final void afterAll(ExtensionContext context) throws Exception {
        // remove() sees only this context's own store, so a nested class never stops its parent's fixture.
        Object running = context.getStore(namespace()).remove(valueType);
        if (running != null) {
            ((AutoCloseable) running).close();
        }
    }

    /** The fixture started for the current test class, for a static {@code @RegisterExtension} field. */
    protected final V current() {
        V value = current;
        if (value == null) {
            throw new IllegalStateException("no " + fixtureName + (instanceName.isEmpty() ? "" : " " + instanceName)
                    + " is running: " + getClass().getSimpleName()
                    + " starts it in beforeAll; register it with @ExtendWith or a static @RegisterExtension field");
        }
        return value;
    }

    @Override
    public final boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return instanceName.isEmpty() && parameter.getParameter().getType() == valueType;
    }

    @Override
    public final Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Running<V> running = find(context.getStore(namespace()));
        if (running == null) {
            throw new ParameterResolutionException("no " + fixtureName + " is running for "
                    + parameter.getDeclaringExecutable() + ": it starts in beforeAll, so take "
                    + valueType.getSimpleName() + " in test or lifecycle methods, not in a per-class constructor");
        }
        return running.value();
    }

    @SuppressWarnings("unchecked")
    private Running<V> find(ExtensionContext.Store store) {
        return (Running<V>) store.get(valueType);
    }

    private ExtensionContext.Namespace namespace() {
        return ExtensionContext.Namespace.create(getClass(), instanceName);
    }
}
