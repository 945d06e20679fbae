package dev.varroa.testfixtures.s3;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;

/**
 * Starts one real s3proxy per test class (its filesystem backend in a throwaway directory, a bucket and an access
 * key pair for the test) on a free loopback port, in a child JVM; stops it after the class.
 *
 * <p>Use {@code @ExtendWith(S3ServerExtension.class)} and take an {@link S3Server} parameter, or keep it in a
 * {@code static @RegisterExtension} field and call {@link #server()}.
 */
public final class S3ServerExtension extends ClassScopedFixtureExtension<S3Server> {

  public S3ServerExtension() {
    super(S3Server.class, "s3proxy");
  }

  @Override
  protected Running<S3Server> start() throws InterruptedException {
    return S3ServerProcess.start();
  }

  /** The server started for the current test class. */
  public S3Server server() {
    return current();
  }
}
