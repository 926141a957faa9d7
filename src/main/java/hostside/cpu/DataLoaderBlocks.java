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
        List<Column> cols = List.of(new Column("measurement", Align.LEFT), new Column("median", Align.RIGHT), new Column("min", Align.RIGHT),
                new Column("max", Align.RIGHT), new Column("unit", Align.LEFT), new Column("dataset", Align.RIGHT), new Column("workers", Align.RIGHT));
        List<List<Text>> rows = new ArrayList<>();
        for (Result x : rs) {
            if (!x.isOk()) {
                rows.add(List.of(Text.code(x.key()), Text.of(x.status() + ": " + x.why()), Text.of(""), Text.of(""), Text.of(""), Text.of(""), Text.of("")));
                continue;
            }
            CowDetail cow = x.detail() instanceof CowDetail c ? c : null;
            rows.add(List.of(Text.code(x.key()), Text.of(Units.figure(x.value().median())), Text.of(Units.figure(x.value().min())),
                    Text.of(Units.figure(x.value().max())), Text.of(x.unit().symbol()), Text.of(cow == null ? "" : Units.bytes(cow.datasetBytes())),
                    Text.of(cow == null ? "" : Integer.toString(cow.workers()))));
        }
        b.add(new Block.Table(cols, rows));
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
