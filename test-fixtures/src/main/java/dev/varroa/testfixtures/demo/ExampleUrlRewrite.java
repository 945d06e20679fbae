package dev.varroa.testfixtures.demo;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.util.List;
import java.util.Map;

/**
 * Replaces example source URLs with the served ones in Kubernetes objects: every string value that
 * equals an example URL exactly, wherever it sits (CatalogSource, ComposedBundle inputs, …).
 */
record ExampleUrlRewrite(Map<String, String> urls) {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    ExampleUrlRewrite {
        urls = Map.copyOf(urls);
    }

    /** Copies of the objects, in the same order, with the URLs replaced. */
    List<HasMetadata> apply(List<HasMetadata> objects) {
        return objects.stream().map(this::apply).toList();
    }

    private HasMetadata apply(HasMetadata object) {
        String json = JSON.asJson(object);
        for (Map.Entry<String, String> url : urls.entrySet()) {
            // Matching the quoted JSON string replaces whole values only, never a longer URL that starts alike.
            json = json.replace(JSON.asJson(url.getKey()), JSON.asJson(url.getValue()));
        }
        return JSON.unmarshal(json, object.getClass());
    }
}
