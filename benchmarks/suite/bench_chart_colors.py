"""The charts' configuration order and colours (bench_charts.py), apart from matplotlib so that
`make test` can check that every configuration of the table (bench_configs.py) has a colour.
Besides the configurations: the restart variants of the recovery workload (CONFIG:fsimage,
CONFIG:edits), and nvm-msync, the configuration nvm-disk replaced, for the charts of older runs."""

ORDER = ["stock-disk", "stock-tmpfs", "stock-nojournal", "stock-disk:fsimage", "stock-disk:edits",
         "stock-tmpfs:fsimage", "stock-tmpfs:edits", "stock-ha-disk", "stock-ha-tmpfs", "h35-disk", "h35-tmpfs",
         "h35-fgl-disk", "h35-fgl-tmpfs", "nvm-emulated", "nvm-warm", "nvm-cold", "nvm-disk", "nvm-disk-nodelay", "nvm-msync",
         "nvm-baseline", "nvm-ha-disk", "nvm-ha-tmpfs", "nvm-disk-ha-disk"]
COLORS = {"stock-disk": "#7f7f7f", "stock-tmpfs": "#1f77b4", "stock-nojournal": "#9edae5",
          "stock-disk:fsimage": "#7f7f7f", "stock-disk:edits": "#c7c7c7", "stock-tmpfs:fsimage": "#1f77b4",
          "stock-tmpfs:edits": "#aec7e8", "nvm-emulated": "#d62728", "nvm-warm": "#e377c2", "nvm-cold": "#8c564b",
          "nvm-disk": "#ff7f0e", "nvm-disk-nodelay": "#fdd0a2", "nvm-msync": "#ff9896", "nvm-baseline": "#f7b6d2",
          "stock-ha-disk": "#2ca02c", "stock-ha-tmpfs": "#98df8a", "nvm-ha-disk": "#9467bd", "nvm-ha-tmpfs": "#c5b0d5",
          # the disk mode's pair: nvm-disk's orange, lighter
          "nvm-disk-ha-disk": "#ffbb78",
          # Apache Hadoop 3.5.0: ochre for the global lock, olive for fine-grained locking; darker on disk
          "h35-disk": "#8c6d31", "h35-tmpfs": "#e7ba52", "h35-fgl-disk": "#637939", "h35-fgl-tmpfs": "#bcbd22"}
