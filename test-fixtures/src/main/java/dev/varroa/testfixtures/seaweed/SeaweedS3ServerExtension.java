package dev.varroa.testfixtures.seaweed;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import java.util.List;

/**
 * Starts one real SeaweedFS S3 gateway per test class with the identities the test gives (an admin and, say, one
 * identity per pool limited to that pool's prefix), on free loopback ports; stops it after the class.
 *
 * <p>Keep it in a {@code static @RegisterExtension} field built with the identities, then take a
 * {@link SeaweedS3Server} parameter or call {@link #server()}.
 */
public final class SeaweedS3ServerExtension extends ClassScopedFixtureExtension<SeaweedS3Server> {

  private final List<SeaweedS3Identity> identities;

  public SeaweedS3ServerExtension(List<SeaweedS3Identity> identities) {
    super(SeaweedS3Server.class, "SeaweedFS");
    this.identities = List.copyOf(identities);
  }

  @Override
  protected Running<SeaweedS3Server> start() throws InterruptedException {
    return SeaweedS3ServerProcess.start(identities);
  }

  /** The server started for the current test class. */
  public SeaweedS3Server server() {
    return current();
  }
}
