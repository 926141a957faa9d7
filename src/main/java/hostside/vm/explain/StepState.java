package hostside.vm.explain;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.type.TypeReference;

import hostside.core.Json;

/**
 * What one step shows, as typed records: a page walk's ({@link WalkState}) or the copy-on-write
 * story's ({@link CowState}). {@code --json} writes the record as it is, its {@link #kind()} first;
 * the terminal draws it from {@link #plain()}, the same data as plain names and values; the
 * course reads the records' fields.
 */
@JsonPropertyOrder({"kind"})
public sealed interface StepState permits WalkState, CowState {
    /** Which stepper made the state: "pagewalk" or "cow". */
    @JsonProperty("kind")
    String kind();

    /** The state as --json writes it, as ordered names and plain values: what the terminal's generic picture draws. */
    default Map<String, Object> plain() {
        return Json.MAPPER.convertValue(this, new TypeReference<LinkedHashMap<String, Object>>() {});
    }
}
