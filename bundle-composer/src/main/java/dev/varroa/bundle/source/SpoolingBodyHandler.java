package dev.varroa.bundle.source;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Streams a successful HTTP response body into a {@link SpooledArtifact}, stopping at the size limit;
 * other statuses discard the body (the caller reports the status). {@link #abandon()} cleans up after a timeout.
 */
final class SpoolingBodyHandler implements HttpResponse.BodyHandler<SpooledArtifact> {
  private final long maxBytes;
  private final String what;
  private volatile SpooledArtifact.Spool spool;

  SpoolingBodyHandler(long maxBytes, String what) {
    this.maxBytes = maxBytes;
    this.what = what;
  }

  @Override
  public HttpResponse.BodySubscriber<SpooledArtifact> apply(HttpResponse.ResponseInfo response) {
    if (response.statusCode() / 100 != 2) {
      return HttpResponse.BodySubscribers.replacing(null);
    }
    try {
      spool = new SpooledArtifact.Spool(maxBytes, what);
    } catch (IOException e) {
      return new Failed(e);
    }
    return new Subscriber(spool);
  }

  /** Deletes whatever was spooled so far; safe to call at any time, also when nothing was. */
  void abandon() {
    SpooledArtifact.Spool current = spool;
    if (current != null) {
      current.discard();
    }
  }

  private static final class Subscriber implements HttpResponse.BodySubscriber<SpooledArtifact> {
    private final SpooledArtifact.Spool spool;
    private final CompletableFuture<SpooledArtifact> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    Subscriber(SpooledArtifact.Spool spool) {
      this.spool = spool;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      try {
        for (ByteBuffer buffer : buffers) {
          spool.write(buffer);
        }
        subscription.request(1);
      } catch (IOException e) {
        subscription.cancel();
        spool.discard();
        body.completeExceptionally(e);
      }
    }

    @Override
    public void onError(Throwable failure) {
      spool.discard();
      body.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
      try {
        body.complete(spool.finish());
      } catch (IOException e) {
        spool.discard();
        body.completeExceptionally(e);
      }
    }

    @Override
    public CompletionStage<SpooledArtifact> getBody() {
      return body;
    }
  }

  /** The temporary file could not even be created: fail the body without reading it. */
  private static final class Failed implements HttpResponse.BodySubscriber<SpooledArtifact> {
    private final CompletableFuture<SpooledArtifact> body;

    Failed(IOException failure) {
      this.body = CompletableFuture.failedFuture(failure);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscription.cancel();
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
      // Cancelled in onSubscribe; nothing more arrives.
    }

    @Override
    public void onError(Throwable throwable) {
      // The body already failed with the cause that matters.
    }

    @Override
    public void onComplete() {
      // The body already failed.
    }

    @Override
    public CompletionStage<SpooledArtifact> getBody() {
      return body;
    }
  }
}
