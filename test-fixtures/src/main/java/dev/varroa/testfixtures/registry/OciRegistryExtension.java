package dev.varroa.testfixtures.registry;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;

/**
 * Starts one real CNCF distribution registry ({@code docker-registry serve}) per test class, on a free
 * loopback port with throwaway filesystem storage, and stops it after the class.
 *
 * <p>Use {@code @ExtendWith(OciRegistryExtension.class)} and take an {@link OciRegistry} parameter, or
 * keep it in a {@code static @RegisterExtension} field and call {@link #registry()}.
 */
public final class OciRegistryExtension extends ClassScopedFixtureExtension<OciRegistry> {

    public OciRegistryExtension() {
        super(OciRegistry.class, "docker-registry");
    }

    @Override
    protected Running<OciRegistry> start() throws InterruptedException {
        return OciRegistryProcess.start();
    }

    /** The registry started for the current test class. */
    public OciRegistry registry() {
        return current();
    }
}
