package dev.varroa.testfixtures.seaweed;

import java.util.List;

/**
 * A running SeaweedFS S3 gateway as tests see it: the endpoint on 127.0.0.1, the bucket made for the test, and the
 * identities it was started with, each with its own access key pair and its own allowed actions. Unlike s3proxy
 * (one identity, no policies), it refuses an identity's request outside what its actions allow with 403
 * AccessDenied, so a test can prove that one credential cannot reach another's prefix.
 */
public final class SeaweedS3Server {

  private final String endpoint;
  private final String bucket;
  private final List<SeaweedS3Identity> identities;

  SeaweedS3Server(String endpoint, String bucket, List<SeaweedS3Identity> identities) {
    this.endpoint = endpoint;
    this.bucket = bucket;
    this.identities = List.copyOf(identities);
  }

  /** e.g. {@code http://127.0.0.1:43121}, no trailing slash. */
  public String endpoint() {
    return endpoint;
  }

  public String bucket() {
    return bucket;
  }

  /** The bucket's path-style URL, e.g. {@code http://127.0.0.1:43121/varroa-records}. */
  public String bucketUrl() {
    return endpoint + "/" + bucket;
  }

  /** Region any client may name: SeaweedFS ignores it, but v4 signatures need one. */
  public String region() {
    return "us-east-1";
  }

  public List<SeaweedS3Identity> identities() {
    return identities;
  }

  /** The identity of that name; throws naming the ones there are. */
  public SeaweedS3Identity identity(String name) {
    return identities.stream().filter(identity -> identity.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no identity named " + name + " on " + this + ": it has "
            + identities.stream().map(SeaweedS3Identity::name).toList()));
  }

  @Override
  public String toString() {
    return bucketUrl() + " (SeaweedFS, identities " + identities.stream().map(SeaweedS3Identity::name).toList() + ")";
  }
}
