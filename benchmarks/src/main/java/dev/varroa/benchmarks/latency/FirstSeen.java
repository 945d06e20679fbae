package dev.varroa.benchmarks.latency;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * When each new state of one object was first seen, through an informer on it. A state is what
 * {@code state} makes of the object (a digest, a generation); its time is taken as the watch event
 * reaches this JVM, so it trails the API server's write by the watch delivery, a few milliseconds here.
 */
public final class FirstSeen<T extends HasMetadata> implements AutoCloseable {

  /** An object the first time it was seen in a state. */
  public record Sighting<T>(Instant at, T object) {
  }

  private final String what;
  private final Function<T, String> state;
  private final List<Sighting<T>> sightings = new ArrayList<>();
  private final Set<String> states = new HashSet<>();
  private final SharedIndexInformer<T> informer;
  private T latest;

  private FirstSeen(String what, Resource<T> resource, Function<T, String> state) {
    this.what = what;
    this.state = state;
    this.informer = resource.inform(new ResourceEventHandler<T>() {
      @Override
      public void onAdd(T object) {
        saw(Instant.now(), object);
      }

      @Override
      public void onUpdate(T previous, T object) {
        saw(Instant.now(), object);
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
      }
    });
  }

  /**
   * Starts watching {@code resource} (one named object).
   *
   * @param state the state an object is in; null for none worth recording
   */
  public static <T extends HasMetadata> FirstSeen<T> watch(String what, Resource<T> resource,
      Function<T, String> state) {
    return new FirstSeen<>(what, resource, state);
  }

  private synchronized void saw(Instant at, T object) {
    latest = object;
    String current = state.apply(object);
    if (current != null && states.add(current)) {
      sightings.add(new Sighting<>(at, object));
      notifyAll();
    }
  }

  /** The first sighting whose object is {@code wanted}, waiting for it until {@code deadline}. */
  public synchronized Sighting<T> await(Predicate<T> wanted, String waitingFor, Instant deadline)
      throws InterruptedException, TimeoutException {
    while (true) {
      for (Sighting<T> sighting : sightings) {
        if (wanted.test(sighting.object())) {
          return sighting;
        }
      }
      long left = Duration.between(Instant.now(), deadline).toMillis();
      if (left <= 0) {
        throw new TimeoutException(what + ": " + waitingFor + " not seen by " + deadline + "; last state seen: "
            + (latest == null ? "none" : state.apply(latest)));
      }
      wait(left);
    }
  }

  @Override
  public void close() {
    informer.close();
  }
}
