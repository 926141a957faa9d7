package hostside.vm.explain;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A page-walk step's state, one record per kind of step ({@link Walk} makes them). Every one
 * carries the layout's key and the address; addresses and entries are hex strings as the reader
 * sees them ("0x00007f3a12345678"), counts and sizes numbers. The fields' names and order are
 * {@code hostside vm --explain pagewalk --json}'s.
 */
@JsonPropertyOrder({"kind", "layout", "address"})
public sealed interface WalkState extends StepState {
    String KIND = "pagewalk";

    /** The layout's key ({@link PageWalk.Layout#key()}). */
    String layout();

    /** The virtual address, hex. */
    String address();

    @Override
    default String kind() {
        return KIND;
    }

    /** The address is not canonical (x86) or in neither TTBR range (ARM): the MMU refuses it before any table is read. */
    record Refused(String layout, String address, String check, String fault, String signal) implements WalkState {}

    /** The address cut into one index per level and the offset. */
    record Split(String layout, String address, int vaBits, long basePageSizeBytes, Half half, List<IndexField> fields) implements WalkState {
        public Split {
            fields = List.copyOf(fields);
        }
    }

    /** Which half of the address space: user (bit 47 or 55 clear) or kernel. */
    enum Half {
        @JsonProperty("user") USER, @JsonProperty("kernel") KERNEL
    }

    /** One field of the address: its name (a level's, or "offset"), its bits "hi:lo", its value and that value in hex. */
    record IndexField(String field, String bits, long value, String hex) {}

    /** The TLB holds the translation: the physical address comes back with no table read. */
    @JsonPropertyOrder({"kind", "layout", "address", "tlb", "virtualPage", "pageSizeBytes", "frame", "offset", "physical", "tableReads"})
    record TlbHit(String layout, String address, String virtualPage, long pageSizeBytes, String frame, String offset, String physical) implements WalkState {
        @JsonProperty("tlb")
        public String tlb() {
            return "hit";
        }

        @JsonProperty("tableReads")
        public int tableReads() {
            return 0;
        }
    }

    /** No TLB entry matches: the walker reads at most one table per level. */
    @JsonPropertyOrder({"kind", "layout", "address", "tlb", "virtualPage", "pageSizeBytes", "tableReadsAtMost"})
    record TlbMiss(String layout, String address, String virtualPage, long pageSizeBytes, int tableReadsAtMost) implements WalkState {
        @JsonProperty("tlb")
        public String tlb() {
            return "miss";
        }
    }

    /** The register that holds the top table's physical address: CR3, TTBR0_EL1 or TTBR1_EL1. */
    record TableBase(String layout, String address, String register, String tableBase, String table) implements WalkState {}

    /**
     * One entry read at one level. A present entry of an upper level names the next table; a leaf
     * names the frame and the page size (and, above the last level, the address bits that become the
     * offset); an entry not present names the fault. What does not apply is null and left out.
     */
    record EntryRead(String layout, String address, String level, String linux, String bits, long index, String tableBase, String entryAddress,
                     String entry, String flags, boolean present,
                     @JsonInclude(JsonInclude.Include.NON_NULL) String nextTable,
                     @JsonInclude(JsonInclude.Include.NON_NULL) String frame,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long pageSizeBytes,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long offsetBits,
                     @JsonInclude(JsonInclude.Include.NON_NULL) String fault) implements WalkState {
        /** Whether this entry maps the page itself (a leaf), rather than a table or nothing. */
        public boolean leaf() {
            return frame != null;
        }
    }

    /** The kernel's fault handler: what is missing, and what it does in each situation. */
    record FaultHandled(String layout, String address, String faultLevel, String missing, List<FaultCase> cases) implements WalkState {
        public FaultHandled {
            cases = List.copyOf(cases);
        }
    }

    /** One situation the fault handler tells apart, what the kernel does, and the fault's kind ("minor", "major", "-"). */
    record FaultCase(String situation, String kernel, String fault) {}

    /** The faulting access again, after the handler: every level read once more, each present now. */
    @JsonPropertyOrder({"kind", "layout", "address", "tlb", "walk"})
    record Retry(String layout, String address, List<WalkRow> walk) implements WalkState {
        public Retry {
            walk = List.copyOf(walk);
        }

        @JsonProperty("tlb")
        public String tlb() {
            return "miss";
        }
    }

    /** One level of the retried walk. */
    record WalkRow(String level, long index, String entryAddress, String entry, String flags) {}

    /** The physical address, and the translation stored in the TLB with its reach. */
    @JsonPropertyOrder({"kind", "layout", "address", "frame", "offset", "physical", "pageSizeBytes", "tlb", "tlbReachBytes", "basePageTlbReachBytes"})
    record Physical(String layout, String address, String frame, String offset, String physical, long pageSizeBytes, long tlbReachBytes,
                    long basePageTlbReachBytes) implements WalkState {
        @JsonProperty("tlb")
        public String tlb() {
            return "filled";
        }
    }
}
