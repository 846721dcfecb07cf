"""Model selection: the folds (folds), cross-validation (cross_validation) and grid search
(grid_search: its records in grid_cells, a worker's task in grid_tasks, the columns seeded
along C in warm_columns). It sits on top of the core: it trains estimators, and nothing below
it imports it. svmdesk.core exports what a script uses (cross_validate, grid_search, ...)."""
