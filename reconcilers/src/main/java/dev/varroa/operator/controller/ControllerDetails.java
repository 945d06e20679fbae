package dev.varroa.operator.controller;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.JenkinsVersionProfileSpec;
import dev.varroa.bundle.render.PluginLock;
import dev.varroa.operator.bffresponders.ControllerRowRenderer;
import dev.varroa.protocol.bus.v1.ControllerDetail;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.util.Optional;

/**
 * One Controller in full for the BFF: the object, the settings its levels resolve to and the plugin lock in force,
 * from what the resolution step of a pass gathers. Pure: it reads only its arguments.
 */
public final class ControllerDetails {

  private static final ObjectMapper SETTINGS = new ObjectMapper()
      .registerModule(new SimpleModule().addSerializer(new OptionalAsValue()))
      .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);

  private ControllerDetails() {}

  static ControllerDetail render(String cluster, Controller controller, ControllerInputResolver.Gathered gathered) {
    ControllerDetail.Builder detail = ControllerDetail.newBuilder()
        .setFound(true)
        .setCluster(cluster)
        .setRow(ControllerRowRenderer.render(controller))
        .setControllerJson(Serialization.asJson(withoutManagedFields(controller)));
    if (gathered instanceof ControllerInputResolver.Ready ready) {
      ControllerInputs inputs = ready.inputs();
      try {
        detail.setSettingsJson(SETTINGS.writeValueAsString(inputs.resolved()));
      } catch (IOException e) {
        detail.setResolutionProblem("settings could not be written as JSON: " + e.getMessage());
      }
      detail.setVersionProfile(inputs.profile().getMetadata().getName());
      if (inputs.profile().getSpec() != null && inputs.profile().getSpec().jenkinsVersion != null) {
        detail.setProfileJenkinsVersion(inputs.profile().getSpec().jenkinsVersion);
      }
      if (inputs.rendered() != null) {
        detail.setDesiredBundleDigest(inputs.rendered().digest());
        for (PluginLock plugin : inputs.rendered().lock().plugins()) {
          detail.putBundlePlugins(plugin.id(), plugin.version());
        }
      }
      if (inputs.profile().getSpec() != null && inputs.profile().getSpec().plugins != null) {
        for (JenkinsVersionProfileSpec.PluginVersion plugin : inputs.profile().getSpec().plugins) {
          detail.putLock(plugin.id, plugin.version);
        }
      }
    } else if (gathered instanceof ControllerInputResolver.Blocked blocked) {
      detail.setResolutionProblem(blocked.message());
    } else if (gathered instanceof ControllerInputResolver.WaitingForBundle waiting) {
      detail.setResolutionProblem("waiting for the render of ComposedBundle " + waiting.bundleName());
    }
    return detail.build();
  }

  private static Controller withoutManagedFields(Controller controller) {
    Controller copy = Serialization.clone(controller);
    copy.getMetadata().setManagedFields(null);
    return copy;
  }

  /** Jackson without its jdk8 module: an Optional is its value, or absent. */
  private static final class OptionalAsValue extends StdSerializer<Optional<?>> {
    @SuppressWarnings({"unchecked", "rawtypes"})
    OptionalAsValue() {
      super((Class) Optional.class);
    }

    @Override
    public boolean isEmpty(SerializerProvider provider, Optional<?> value) {
      return value == null || value.isEmpty();
    }

    @Override
    public void serialize(Optional<?> value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      if (value.isPresent()) {
        provider.defaultSerializeValue(value.get(), gen);
      } else {
        gen.writeNull();
      }
    }
  }
}
