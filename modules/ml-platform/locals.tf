# The arithmetic between pools and queues: flavors from the pools, each team's quota in whole GPUs
# turned into what the pool's nodes expose, the over-commit check and the hourly cost ceilings.
# Everything here is known at plan: pools' supplies are computed from their configuration.

locals {
  # Each pool's most GPUs per capacity-type attribute (null: it runs none). On a MultiKueue
  # manager, which runs no GPU nodes, the pools are its workers', summed: Kueue's advice is a
  # manager quota equal to the workers' together.
  pool_gpus = local.manager ? { for p in local.worker_pools : p => {
    for attr in keys(local.capacity_types) : attr => (
      anytrue([for w in local.workers : try(w.pools[p].max_gpus[attr], null) != null])
      ? sum([for w in local.workers : try(w.pools[p].max_gpus[attr], 0)]) : null
    )
    } } : { for p, pool in var.gpu_pools : p => {
    for attr in keys(local.capacity_types) : attr => try(pool[attr].max_gpus, null)
  } }

  # What each pool supplies per capacity type (mlplatform_gpu_node_pool's supplies) and its
  # Karpenter name; on a manager, the first worker's that runs the pool (multikueue.tf checks that
  # every worker runs it alike).
  supplies   = local.manager ? { for p in local.worker_pools : p => [for w in local.workers : w.supplies[p] if contains(keys(w.supplies), p)][0] } : { for p, r in mlplatform_gpu_node_pool.this : p => r.supplies }
  pool_names = local.manager ? { for p in local.worker_pools : p => [for w in local.workers : w.pools[p].name if contains(keys(w.pools), p)][0] } : { for p, r in mlplatform_gpu_node_pool.this : p => r.name }

  # A pool's capacity-type attribute and the Karpenter capacity type it runs.
  capacity_types = { reserved = "reserved", on_demand = "on-demand", spot = "spot" }

  # One Kueue ResourceFlavor per pool and capacity type it runs, named "<pool>-<capacity type>".
  flavors = merge([for p, pool in local.pool_gpus : {
    for attr, type in local.capacity_types : "${p}-${type}" => {
      pool          = p
      attr          = attr
      capacity_type = type
      max_gpus      = pool[attr]
    } if pool[attr] != null
  }]...)

  # The order in which every queue lists the flavors, which is the order Kueue tries them in:
  # pools by key, reserved (already paid for) before on-demand before spot.
  flavor_order = flatten([for p in sort(keys(local.pool_gpus)) : [
    for attr in ["reserved", "on_demand", "spot"] : "${p}-${local.capacity_types[attr]}" if local.pool_gpus[p][attr] != null
  ]])

  # What one GPU of each pool exposes, e.g. { "nvidia.com/mig-1g.10gb" = 7 } under all-1g.10gb,
  # from the pool's supplies. Both capacity types expose the same per GPU, so the first the pool
  # runs is read, with the CPU (millicores) and memory (MiB) one GPU's share of a node offers pods.
  pool_supply = { for p, pool in local.pool_gpus :
    p => local.supplies[p][[for a in ["reserved", "on_demand", "spot"] : local.capacity_types[a] if pool[a] != null][0]]
  }
  units_per_gpu = { for p, s in local.pool_supply : p => s.per_gpu }

  # The resources every queue covers, in one resource group since Kueue puts a resource (cpu,
  # memory) in one group only: every GPU resource of any pool, then cpu and memory. A flavor gives
  # 0 of a GPU resource its nodes do not have.
  gpu_resources = sort(distinct(flatten([for u in local.units_per_gpu : keys(u)])))
  covered       = concat(local.gpu_resources, ["cpu", "memory"])

  # Each covered resource per GPU of each flavor's pool, CPU in millicores and memory in MiB (the
  # unit suffixes of quantity_unit).
  per_gpu = { for f, fl in local.flavors : f => merge(
    { for r in local.gpu_resources : r => lookup(local.units_per_gpu[fl.pool], r, 0) },
    { cpu = local.pool_supply[fl.pool].cpu_milli_per_gpu, memory = local.pool_supply[fl.pool].memory_mib_per_gpu },
  ) }
  quantity_unit = { cpu = "m", memory = "Mi" }

  # Each team's whole GPUs on each flavor: nominal quota, borrowing limit (null: none) and
  # lending limit (null: all; never above the nominal quota, as Kueue requires). A pool the
  # team names that does not exist is left out here and refused by a precondition.
  # On a MultiKueue manager, the sums of the workers' (a limit null on any worker: none).
  team_gpus = { for t, team in var.teams : t => { for f, fl in local.flavors : f => local.manager ? {
    nominal = sum(concat([0], [for w in local.workers : try(w.teams[t].gpus[f].nominal, 0)]))
    borrow  = anytrue([for w in local.workers : try(w.teams[t].gpus[f].borrow, null) == null]) ? null : sum([for w in local.workers : w.teams[t].gpus[f].borrow])
    lend    = anytrue([for w in local.workers : try(w.teams[t].gpus[f].lend, null) == null]) ? null : sum([for w in local.workers : w.teams[t].gpus[f].lend])
    } : {
    nominal = try(team.gpus[fl.pool][fl.attr], 0)
    borrow  = try(team.gpus[fl.pool].borrowing_limit, null)
    lend    = try(min(team.gpus[fl.pool].lending_limit, team.gpus[fl.pool][fl.attr]), null)
  } } }

  # The quotas written on each team's ClusterQueue: team => flavor => resource => quantities.
  quotas = { for t, by_flavor in local.team_gpus : t => { for f, g in by_flavor : f => {
    for r, per in local.per_gpu[f] : r => {
      nominal_quota   = "${g.nominal * per}${lookup(local.quantity_unit, r, "")}"
      borrowing_limit = g.borrow == null ? null : "${g.borrow * per}${lookup(local.quantity_unit, r, "")}"
      lending_limit   = g.lend == null ? null : "${g.lend * per}${lookup(local.quantity_unit, r, "")}"
    }
  } } }

  # The teams' quotas summed per flavor, against what the pool's capacity type supplies.
  demand = { for f, fl in local.flavors : f => sum(concat([0], [for t in keys(var.teams) : local.team_gpus[t][f].nominal])) }
  overcommit = { for f, fl in local.flavors : f => {
    pool          = fl.pool
    capacity_type = fl.capacity_type
    quota_gpus    = local.demand[f]
    supply_gpus   = fl.max_gpus
  } if local.demand[f] > fl.max_gpus }

  # Quotas no flavor can hold, per team: a pool that does not exist, or a capacity type the pool
  # does not run.
  misplaced = { for t, team in var.teams : t => concat(
    [for p, _ in team.gpus : "gpus.${p}: there is no pool \"${p}\" in gpu_pools (pools: ${join(", ", keys(local.pool_gpus))})" if !contains(keys(local.pool_gpus), p)],
    flatten([for p, q in team.gpus : [
      for attr, type in local.capacity_types : "gpus.${p}.${attr} = ${q[attr]}: pool \"${p}\" runs no ${type} nodes (set gpu_pools.${p}.${attr}, or drop this quota)"
      if contains(keys(local.pool_gpus), p) && q[attr] > 0 && try(local.pool_gpus[p][attr], null) == null
    ]]),
  ) }

  # The pod label that names a project, for the billing rules: the teams' (one for all of them).
  project_label = try(distinct([for t in var.teams : t.project_label])[0], "mlplatform.io/project")

  # Training templates and their schedules, keyed "<team>/<template>" and "<team>/<schedule>".
  templates = merge([for t, team in var.teams : {
    for n, tpl in team.training_templates : "${t}/${n}" => merge(tpl, { team = t, name = n })
  }]...)
  schedules = merge([for k, tpl in local.templates : {
    for n, s in tpl.schedules : "${tpl.team}/${n}" => merge(s, { team = tpl.team, template = k, name = n })
  }]...)

  # The hourly price of one GPU of each flavor: what one GPU exposes times the price of each unit
  # (the units' prices add up to the GPU's), from the pool's supplies. Null without a price (spot
  # with neither price_per_hour nor discount, or an instance type the price table lacks).
  gpu_price = { for f, fl in local.flavors : f => try(sum([
    for r, n in local.units_per_gpu[fl.pool] : n * local.supplies[fl.pool][fl.capacity_type].hourly_price[r]
  ]), null) }
  unpriced = [for f in local.flavor_order : f if local.gpu_price[f] == null]

  # The most each team may hold on each flavor: its quota, plus what it may borrow, which is at
  # most what the other teams may lend.
  lendable = { for t in keys(var.teams) : t => { for f in keys(local.flavors) : f => sum(concat([0], [
    for u, g in local.team_gpus : g[f].lend == null ? g[f].nominal : g[f].lend if u != t
  ])) } }
  team_most = { for t, by_flavor in local.team_gpus : t => { for f, g in by_flavor : f =>
    g.nominal + (g.borrow == null ? local.lendable[t][f] : min(g.borrow, local.lendable[t][f]))
  } }

  # USD per hour, rounded to cents; null when a flavor involved has no price.
  team_cost = { for t, by_flavor in local.team_gpus : t => {
    quota = anytrue([for f, g in by_flavor : g.nominal > 0 && local.gpu_price[f] == null]) ? null : floor(100 * sum(concat([0], [
      for f, g in by_flavor : g.nominal * local.gpu_price[f] if g.nominal > 0
    ])) + 0.5) / 100
    with_borrowing = anytrue([for f, n in local.team_most[t] : n > 0 && local.gpu_price[f] == null]) ? null : floor(100 * sum(concat([0], [
      for f, n in local.team_most[t] : n * local.gpu_price[f] if n > 0
    ])) + 0.5) / 100
  } }
  pool_cost = { for p in keys(local.pool_gpus) : p => (
    anytrue([for f, fl in local.flavors : fl.pool == p && local.gpu_price[f] == null]) ? null : floor(100 * sum([
      for f, fl in local.flavors : fl.max_gpus * local.gpu_price[f] if fl.pool == p
    ]) + 0.5) / 100
  ) }
}
