package hostside.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import hostside.core.Units;
import hostside.cpu.dataloader.CowDetail;
import hostside.cpu.dataloader.SpawnDetail;
import hostside.doc.Block;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.FiguresTable;
import hostside.doc.Text;
import hostside.harness.Cut;
import hostside.harness.Result;

/**
 * The DataLoader part of Module 3's document: copy-on-write growth of forked workers over a list
 * and over an array, with the dataset and workers each ran with (and the cut, where the dataset
 * was cut to fit), and how fork and spawn fared once CUDA was initialised.
 */
final class DataLoaderBlocks {
    private DataLoaderBlocks() {}

    static Section of(List<Result> rs) {
        List<Block> b = new ArrayList<>();
        b.add(Paragraph.of("Forked Python workers reading a dataset: each worker's private memory (USS) growth as a share of the dataset;"
                + " fork vs spawn of a process that has initialised CUDA."));
        FiguresTable t = new FiguresTable("measurement", false, new Column("dataset", Align.RIGHT), new Column("workers", Align.RIGHT));
        for (Result x : rs) {
            if (!x.isOk()) {
                t.notRun(x.key(), x.status() + ": " + x.why());
                continue;
            }
            CowDetail cow = x.detail() instanceof CowDetail c ? c : null;
            t.add(Text.code(x.key()), x.value(), x.unit(), Text.of(cow == null ? "" : Units.bytes(cow.datasetBytes())),
                    Text.of(cow == null ? "" : Integer.toString(cow.workers())));
        }
        b.add(t.table());
        // --dataset-size cut to fit the machine: the dataset column is what ran, this says why
        rs.stream().flatMap(x -> Cut.in(x).stream()).distinct().findFirst().ifPresent(c -> b.add(Note.of("note: " + c.text())));
        rs.stream().filter(x -> x.detail() instanceof SpawnDetail).findFirst().ifPresent(x -> b.add(spawn((SpawnDetail) x.detail())));
        return new Section("DataLoader workers", b);
    }

    /** How each way of starting a worker fared, and the torch that was asked. */
    static KeyValues spawn(SpawnDetail d) {
        List<KeyValues.Entry> e = new ArrayList<>();
        e.add(KeyValues.Entry.of("fork() touching CUDA", d.fork().text()));
        e.add(KeyValues.Entry.of("fork() on the CPU", d.forkCpu().text()));
        long ok = d.spawnTries().stream().filter(SpawnDetail.SpawnTry::ok).count();
        String cuda = d.spawnCudaSeconds() == null ? "" : String.format(Locale.ROOT, "; CUDA up in the child in %.3f s", d.spawnCudaSeconds());
        e.add(KeyValues.Entry.of("spawn touching CUDA", d.spawn().text() + " (" + ok + " of " + d.spawnTries().size() + " tries" + cuda + ")"));
        e.add(KeyValues.Entry.of("torch", String.format(Locale.ROOT, "%s (CUDA %s) on %s; CUDA up in the parent in %.3f s", d.torch(), d.cuda(), d.device(),
                d.parentCudaInitSeconds())));
        return new KeyValues(e);
    }
}
