"""What the run-directory tests share: a complete Barbu run to copy and break."""


def three_chunk_run(out, *contracts):
    """A complete Barbu run at ``out`` of 3 chunks of 1,000 deals (seed 5) of ``contracts``."""
    from barbu_sim.barbu.runs import RunConfig, run
    run(out, RunConfig(deals=3000, seed=5, contracts=list(contracts), chunk_deals=1000), progress=False)
    return out
