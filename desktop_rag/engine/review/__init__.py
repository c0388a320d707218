"""The method's evaluation loop (issue 39): the review log of the answers given, and the user's labelled questions
measured against the library (recall@5, precision@5, nDCG@10)."""
