package dev.varroa.testfixtures.s3;

import java.nio.file.Path;

/**
 * A running s3proxy as tests see it: the endpoint on 127.0.0.1, a bucket made for the test, the access key pair
 * it accepts (AWS signature v2 or v4), and control of the same server (stop, kill, start again on the same port
 * and data directory) for tests that take the store away mid-stream.
 */
public final class S3Server {

  private final S3ServerProcess process;
  private final String endpoint;
  private final String bucket;
  private final String accessKeyId;
  private final String secretAccessKey;

  S3Server(S3ServerProcess process, String endpoint, String bucket, String accessKeyId, String secretAccessKey) {
    this.process = process;
    this.endpoint = endpoint;
    this.bucket = bucket;
    this.accessKeyId = accessKeyId;
    this.secretAccessKey = secretAccessKey;
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

  /** Region any client may name: s3proxy's filesystem backend ignores it, but v4 signatures need one. */
  public String region() {
    return "us-east-1";
  }

  public String accessKeyId() {
    return accessKeyId;
  }

  public String secretAccessKey() {
    return secretAccessKey;
  }

  /** Creates another empty bucket (a directory of the filesystem backend); returns its path-style URL. */
  public String createBucket(String name) {
    process.createBucket(name);
    return endpoint + "/" + name;
  }

  /** Where the filesystem backend keeps the objects: {@code <dir>/<bucket>/<key>}. */
  public Path dataDirectory() {
    return process.dataDirectory();
  }

  /** Stops the server politely (SIGTERM); objects stay on disk for {@link #start()}. */
  public void stop() throws InterruptedException {
    process.stopServer();
  }

  /** SIGKILL, as a crash would end it. */
  public void kill() throws InterruptedException {
    process.killServer();
  }

  /** Starts the same server again on the same port and data; returns once it serves requests. */
  public void start() throws InterruptedException {
    process.startServer();
  }

  public boolean isRunning() {
    return process.isRunning();
  }

  @Override
  public String toString() {
    return bucketUrl() + " (s3proxy, access key " + accessKeyId + ")";
  }
}
